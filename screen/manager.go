package screen

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
)

// DefaultRingBytes is the raw output a session keeps for its emulator
// unless Options.RingBytes says otherwise.
const DefaultRingBytes = 1 << 20

// DefaultReplyTimeout bounds the write of one answer to a terminal query.
const DefaultReplyTimeout = 5 * time.Second

// DefaultEscapeWait is how long SendKeys waits, after keys that end with a
// bare Escape, for the program to redraw (see Options.EscapeWait).
const DefaultEscapeWait = 1100 * time.Millisecond

// DefaultFullScreenKeysTimeout is Options.FullScreenKeysTimeout's default.
const DefaultFullScreenKeysTimeout = 10 * time.Second

// Options configure a [Manager]. The zero value is usable.
type Options struct {
	// RingBytes bounds the raw output kept per session for an emulator
	// that has not caught up yet. Default DefaultRingBytes.
	RingBytes int
	// DefaultSize is the terminal size assumed for a session whose size
	// the service does not report (core.SessionInfo.Size zero). Default
	// core.DefaultSize, the size the service gives a spawn request that
	// names none.
	DefaultSize core.Size
	// ReplyTimeout bounds the write of an answer to a terminal query (a
	// program that never reads its input cannot hold the answers up
	// forever). Default DefaultReplyTimeout.
	ReplyTimeout time.Duration
	// EscapeWait is how long SendKeys waits for output after keys that
	// end with a bare Escape settled. Programs cannot tell the Escape key
	// from the start of an escape sequence at once: vim waits
	// 'timeoutlen' (1s without a vimrc), ncurses ESCDELAY (1s), and they
	// redraw only then, so the screen right after the send would still
	// show the state before the keys. Default DefaultEscapeWait; negative
	// turns the wait off.
	EscapeWait time.Duration
	// FullScreenKeysTimeout bounds how long SendKeys waits for keys typed
	// into a full-screen program when the request sets no Timeout. A
	// program that reads its keys reacts in milliseconds; one that never
	// reads them (watch redraws until interrupted) would hold the call
	// for the service's whole send deadline. The result is then a
	// timeout with the screen, and the unread keys in its foreground
	// note. Default DefaultFullScreenKeysTimeout; negative: the service's
	// send deadline.
	FullScreenKeysTimeout time.Duration
	// Logger receives structured logs (session ids, emulator resets; never
	// terminal bytes). Default slog.Default().
	Logger *slog.Logger
	// MaxCells bounds one screen (rows x cols): a larger resize or spawn
	// is INVALID_ARGUMENT. Default DefaultMaxCells.
	MaxCells int
	// MaxTotalCells bounds the cells of every screen the manager keeps
	// together (each session counts at its current size, whether or not
	// its emulator was created yet): a resize or spawn that would go past
	// it is RESOURCE_LIMIT. Default DefaultMaxTotalCells.
	MaxTotalCells int
}

func (o Options) withDefaults() Options {
	if o.RingBytes <= 0 {
		o.RingBytes = DefaultRingBytes
	}
	if o.DefaultSize == (core.Size{}) {
		o.DefaultSize = core.DefaultSize
	}
	if o.ReplyTimeout <= 0 {
		o.ReplyTimeout = DefaultReplyTimeout
	}
	if o.EscapeWait == 0 {
		o.EscapeWait = DefaultEscapeWait
	}
	if o.FullScreenKeysTimeout == 0 {
		o.FullScreenKeysTimeout = DefaultFullScreenKeysTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.MaxCells <= 0 {
		o.MaxCells = DefaultMaxCells
	}
	if o.MaxTotalCells <= 0 {
		o.MaxTotalCells = DefaultMaxTotalCells
	}
	return o
}

// Manager keeps a screen for every session of a service: it answers the
// terminal's queries, takes snapshots, resizes sessions and sends named
// keys.
//
// Plug its OnSpawn method into core.Options.OnSpawn and bind it to the
// service:
//
//	m := screen.NewManager(screen.Options{})
//	svc := core.New(core.Options{OnSpawn: m.OnSpawn})
//	m.Bind(svc)
//	defer m.Close()
//
// Per session the session's read loop copies the raw output into a
// bounded buffer and scans it for terminal queries (core.Tap's SetSink);
// one goroutine per session answers the queries and notices the end. The terminal emulator
// (github.com/charmbracelet/x/vt) is created and fed only when something
// needs it: a snapshot, a query to answer, or keys whose encoding depends
// on the terminal's mode. Sessions nobody asks about pay a copy and a scan
// of their output in the read loop, nothing more.
//
// Every method authorizes the caller through the service: another owner's
// session id gets FOREIGN_SESSION.
type Manager struct {
	opts   Options
	log    *slog.Logger
	ctx    context.Context // ends at Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	svc    core.Terminals
	tails  tailSkipper // FollowTails's, or nil
	states map[core.SessionID]*state
	cells  int64 // the cells of every state, against opts.MaxTotalCells
	closed bool
}

// tailSkipper moves an owner's tail of a session past its output so far,
// and says how the facade cuts what it returns from a tail
// (*ptysession.Sessions).
type tailSkipper interface {
	Skip(owner *core.Owner, id core.SessionID) error
	TailBounds() core.TailRequest
}

// FollowTails makes every screen m shows an owner (SendKeys, the
// pty_screen tool, a full-screen pty_send or pty_open) move that owner's
// tail in s past the output drawn until then: the next send or tail
// returns what came after, not the drawing the screen already showed.
func (m *Manager) FollowTails(s *ptysession.Sessions) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tails = s
}

// shown moves owner's tail of id past the output so far (FollowTails),
// just before a screen of it is taken: output drawn between the two is on
// the screen and may come again in the tail; none is lost.
func (m *Manager) shown(owner *core.Owner, id core.SessionID) {
	if tails := m.followed(); tails != nil {
		_ = tails.Skip(owner, id)
	}
}

// followed returns FollowTails's facade, or nil.
func (m *Manager) followed() tailSkipper {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tails
}

// NewManager returns a manager. Bind it to a service before using it.
func NewManager(opts Options) *Manager {
	opts = opts.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	return &Manager{
		opts:   opts,
		log:    opts.Logger,
		ctx:    ctx,
		cancel: cancel,
		states: make(map[core.SessionID]*state),
	}
}

// Bind sets the service whose sessions the manager serves: it authorizes
// callers through it and resizes and sends through it. Bind it to the
// service whose Options.OnSpawn is m.OnSpawn. A *core.Service also lets the
// manager attach to sessions it did not see spawn, and tells it when a
// session is closed (core.CloseNotifier): the manager drops the session's
// screen then.
func (m *Manager) Bind(svc core.Terminals) {
	m.mu.Lock()
	m.svc = svc
	m.mu.Unlock()
	if n, ok := svc.(core.CloseNotifier); ok {
		n.OnClose(m.sessionClosed)
	}
}

// sessionClosed drops a closed session's screen and frees its cells.
func (m *Manager) sessionClosed(_ *core.Owner, id core.SessionID) {
	m.mu.Lock()
	st := m.states[id]
	m.mu.Unlock()
	if st != nil {
		m.forget(st)
	}
}

// OnSpawn is the core.Options.OnSpawn hook: it starts watching a new
// session. It does not block.
func (m *Manager) OnSpawn(info core.SessionInfo, owner *core.Owner, tap *core.Tap) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		tap.Close()
		return
	}
	m.startLocked(info.ID, owner, tap, false, info.Size)
}

// startLocked creates a session's state and starts its drain goroutine.
// m.mu is held.
// size is the session's terminal size (zero: Options.DefaultSize).
func (m *Manager) startLocked(id core.SessionID, owner *core.Owner, tap *core.Tap, late bool, size core.Size) *state {
	st := newState(m, id, owner, tap)
	if size != (core.Size{}) {
		st.base = size // before the goroutine starts
	}
	if late {
		st.approx = true
	}
	// A session that exists has its size already: it is counted even
	// over budget, and the next growth anywhere is refused instead.
	st.cells = cellsOf(st.base)
	m.cells += st.cells
	m.states[id] = st
	st.follow(tap, 0)
	// The read loop hands every chunk to the sink; a new session's sink
	// sees the output from its first byte and keeps readAlt (a late
	// attach starts mid-stream and leaves it unknown).
	if !late {
		st.trackAlt = true
		st.readAlt.Store(altNormal)
	}
	tap.SetSink(st.sink)
	tap.SetCursorLine(st.cursorLine)
	m.wg.Add(1)
	go st.run()
	return st
}

// Close stops watching every session: it ends the manager's goroutines and
// detaches its taps. Later calls fail with SERVICE_DISPOSING. It is
// idempotent and does not close the sessions.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.cancel()
	m.wg.Wait()
	m.mu.Lock()
	states := m.states
	m.states = make(map[core.SessionID]*state)
	m.cells = 0
	m.mu.Unlock()
	for _, st := range states {
		st.closeTap()
	}
}

// tapper is the part of *core.Service that opens a tap on a running
// session.
type tapper interface {
	Tap(owner *core.Owner, id core.SessionID) (*core.Tap, error)
}

// service returns the bound service or an error.
func (m *Manager) service(op string) (core.Terminals, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, &core.Error{Code: core.CodeServiceDisposing, Op: op, Msg: "the screen manager was closed"}
	}
	if m.svc == nil {
		return nil, &core.Error{Code: core.CodeInternal, Op: op, Msg: "the screen manager is not bound to a service (call Bind)"}
	}
	return m.svc, nil
}

// lookup authorizes owner for id through the service and returns the
// session's state, attaching to the session if the manager did not see it
// spawn.
func (m *Manager) lookup(op string, owner *core.Owner, id core.SessionID) (core.Terminals, *state, error) {
	svc, err := m.service(op)
	if err != nil {
		return nil, nil, err
	}
	info, err := svc.Info(owner, id)
	if err != nil {
		return nil, nil, err
	}
	m.mu.Lock()
	st := m.states[id]
	m.mu.Unlock()
	if st != nil {
		return svc, st, nil
	}
	tp, ok := svc.(tapper)
	if !ok {
		return nil, nil, &core.Error{Code: core.CodeUnsupported, Op: op, Session: id,
			Msg: "the screen manager did not see this session start (set core.Options.OnSpawn to Manager.OnSpawn)"}
	}
	tap, err := tp.Tap(owner, id)
	if err != nil {
		return nil, nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		tap.Close()
		return nil, nil, &core.Error{Code: core.CodeServiceDisposing, Op: op, Msg: "the screen manager was closed"}
	}
	if st := m.states[id]; st != nil { // attached by a concurrent call
		tap.Close()
		return svc, st, nil
	}
	m.log.Debug("ptyseam/screen: attached to a running session", "session", id)
	return svc, m.startLocked(id, owner, tap, true, info.Size), nil
}

// forget drops a session's state.
func (m *Manager) forget(st *state) {
	m.mu.Lock()
	if m.states[st.id] == st {
		delete(m.states, st.id)
		m.releaseCellsLocked(st)
	}
	m.mu.Unlock()
}

// Spawn starts a session through the bound service, like the service's
// Spawn, after checking that its screen fits the manager's cell limits.
func (m *Manager) Spawn(ctx context.Context, owner *core.Owner, req core.SpawnRequest) (core.SpawnResult, error) {
	svc, err := m.service("spawn")
	if err != nil {
		return core.SpawnResult{}, err
	}
	size := req.Size
	if size == (core.Size{}) {
		size = core.DefaultSize
	}
	if err := m.checkCells("spawn", "", size); err != nil {
		return core.SpawnResult{}, err
	}
	if err := m.fits("spawn", size); err != nil {
		return core.SpawnResult{}, err
	}
	return svc.Spawn(ctx, owner, req)
}

// watched reports how many sessions the manager holds state for (tests).
func (m *Manager) watched() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.states)
}
