package screen

import (
	"context"
	"errors"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// state is what the manager keeps for one session.
type state struct {
	m     *Manager
	id    core.SessionID
	owner *core.Owner
	cells int64 // held in the manager's cell budget; guarded by m.mu

	// The drain goroutine is the only reader of the tap. tapMu guards the
	// fields it shares with the sink, which wakes it for a query.
	tapMu      sync.Mutex
	tap        *core.Tap
	waitCtx    context.Context // the drain's current wait; cancelled to make it flush
	waitCancel context.CancelFunc
	done       chan struct{} // closed when the drain goroutine returned

	resizeMu sync.Mutex // one resize at a time

	// ringMu guards what the session's read loop writes (see sink): it
	// is held only for a copy into or out of the ring, never while the
	// emulator works, so that the screen never holds the read loop up.
	ringMu   sync.Mutex
	ring     ring
	grew     chan struct{} // closed (and dropped) when output arrives; made by a waiter
	scan     queryScanner
	trackAlt bool        // scan saw the output from its first byte: it keeps readAlt
	queries  atomic.Bool // the read loop saw a terminal query to answer
	scratch  []byte      // catch-up's copy of ring bytes; guarded by mu

	// mu guards the rest; it is held while the emulator catches up.
	mu       sync.Mutex
	base     core.Size  // the size in force at the first mark's offset or before
	marks    []sizeMark // later resizes, by increasing offset
	term     *term      // nil until something needs the emulator
	fed      int64      // stream offset the emulator has consumed
	answered int64      // replies were produced for every byte before this
	approx   bool       // the emulator missed output since the last full redraw
	eof      bool       // the session's output ended
	last     []string   // rows of the previous snapshot
	lastSize core.Size
	haveLast bool

	replies     []byte // answers waiting to be written to the terminal
	replier     bool   // the replier goroutine runs
	replyKick   chan struct{}
	repliesLost int64 // bytes of answers dropped (queue full)

	// readAlt is the alternate-screen flag as of the last chunk the
	// session's read loop handed the sink (altUnknown for a screen that
	// attached to a running session): mode answers from it.
	readAlt atomic.Int32
}

// Values of state.readAlt: altUnknown, or altNormal with the bits altOn
// and altDrawn.
const (
	altUnknown int32 = -1
	altNormal  int32 = 0
	altOn      int32 = 1 // on the alternate screen
	altDrawn   int32 = 2 // drawing on the normal screen (queryScanner.drawn)
)

// noteReadAlt records the read loop's scan's alt and drawn flags unless
// readAlt was given up (altUnknown is final).
func (st *state) noteReadAlt(alt, drawn bool) {
	v := altNormal
	if alt {
		v |= altOn
	}
	if drawn {
		v |= altDrawn
	}
	for {
		old := st.readAlt.Load()
		if old == altUnknown || old == v || st.readAlt.CompareAndSwap(old, v) {
			return
		}
	}
}

// sizeMark records that the terminal had size from stream offset off on.
type sizeMark struct {
	off  int64
	size core.Size
}

// maxQueuedReplies bounds the answers waiting for a program that does not
// read its input.
const maxQueuedReplies = 64 << 10

func newState(m *Manager, id core.SessionID, owner *core.Owner, tap *core.Tap) *state {
	st := &state{
		m:         m,
		id:        id,
		owner:     owner,
		tap:       tap,
		done:      make(chan struct{}),
		ring:      newRing(m.opts.RingBytes),
		base:      m.opts.DefaultSize,
		replyKick: make(chan struct{}, 1),
	}
	st.waitCtx, st.waitCancel = context.WithCancel(m.ctx)
	st.readAlt.Store(altUnknown)
	return st
}

// cancelled is a context that has ended: Tap.Next with it returns queued
// output and then CANCELLED instead of waiting.
var cancelled = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

// run is the drain goroutine: the read loop puts the output in the ring
// (sink); run answers the terminal queries it saw, when woken for them,
// until the output ends or the manager closes.
func (st *state) run() {
	defer st.m.wg.Done()
	defer close(st.done)
	defer st.finish()
	for {
		st.tapMu.Lock()
		tap, ctx := st.tap, st.waitCtx
		st.tapMu.Unlock()
		c, err := tap.Next(ctx)
		if err == nil {
			st.sink(c) // none after SetSink; kept for a tap read before it
			continue
		}
		if !st.recover(err) {
			return
		}
		if core.CodeOf(err) == core.CodeCancelled {
			if !st.flush() {
				return
			}
			st.answerQueries()
		}
	}
}

// recover handles an error from Tap.Next and reports whether draining
// goes on.
func (st *state) recover(err error) bool {
	switch {
	case errors.Is(err, io.EOF):
		return false
	case core.CodeOf(err) == core.CodeCancelled:
		return st.m.ctx.Err() == nil
	case core.CodeOf(err) == core.CodeTapOverflow:
		return st.reattach()
	}
	st.m.log.Warn("ptyseam/screen: reading the session's output failed", "session", st.id, "err", err)
	return false
}

// flush drains what the tap holds without waiting, then releases the
// callers waiting for it. It reports whether draining goes on.
func (st *state) flush() bool {
	st.tapMu.Lock()
	st.waitCancel()
	st.waitCtx, st.waitCancel = context.WithCancel(st.m.ctx)
	tap := st.tap
	st.tapMu.Unlock()
	for {
		c, err := tap.Next(cancelled)
		if err == nil {
			st.sink(c) // none after SetSink; kept for a tap read before it
			continue
		}
		if core.CodeOf(err) == core.CodeCancelled {
			return st.m.ctx.Err() == nil
		}
		if !st.recover(err) {
			return false
		}
		st.tapMu.Lock()
		tap = st.tap
		st.tapMu.Unlock()
	}
}

// reattach replaces a tap that overflowed (the drain fell more than the
// tap's bound behind) with a new one; the output in between is lost and
// the screen becomes approximate. It reports whether draining goes on.
func (st *state) reattach() bool {
	st.m.log.Warn("ptyseam/screen: output was lost before the screen saw it", "session", st.id)
	st.readAlt.Store(altUnknown) // the new tap's scan starts mid-stream
	st.mu.Lock()
	st.approx = true
	st.mu.Unlock()
	st.ringMu.Lock()
	base := st.ring.end // the old tap was drained up to its overflow
	st.ringMu.Unlock()
	svc, err := st.m.service("screen")
	if err != nil {
		return false
	}
	tp, ok := svc.(tapper)
	if !ok {
		return false
	}
	tap, err := tp.Tap(st.owner, st.id)
	if err != nil {
		return false
	}
	st.follow(tap, base)
	st.tapMu.Lock()
	old := st.tap
	st.tap = tap
	st.tapMu.Unlock()
	old.Close()
	tap.SetSink(st.sink)
	tap.SetCursorLine(st.cursorLine)
	return true
}

// sync waits until everything the session's tap had received when sync
// was called is in the ring. The read loop hands every chunk to the sink
// before anyone can see it in the session (the scrollback, a settled
// send), so there is nothing to wait for: sync only checks ctx.
func (st *state) sync(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return &core.Error{Code: core.CodeCancelled, Op: "screen", Session: st.id, Msg: "the caller's context ended", Err: err}
	}
	return nil
}

// sink takes a chunk of output in the session's read loop (core.Tap's
// SetSink): one copy into the ring and the query scan, nothing that can
// wait on the emulator. A terminal query wakes the drain goroutine, which
// answers it, and tells the session an answer is owed (core.Tap's
// ExpectReply).
func (st *state) sink(p []byte) {
	st.ringMu.Lock()
	st.ring.write(p)
	if st.grew != nil {
		close(st.grew)
		st.grew = nil
	}
	n := st.scan.scan(p)
	if st.trackAlt {
		st.noteReadAlt(st.scan.alt, st.scan.drawn)
	}
	st.ringMu.Unlock()
	if n > 0 {
		st.queries.Store(true)
		st.tapMu.Lock()
		st.tap.ExpectReply() // a send waits for the answer, not the caller
		st.waitCancel()
		st.tapMu.Unlock()
	}
}

// answerQueries brings the emulator up to date if the read loop saw a
// terminal query, which queues the answers.
func (st *state) answerQueries() {
	if !st.queries.Swap(false) {
		return
	}
	st.mu.Lock()
	if !st.eof {
		st.catchUpLocked()
	}
	kick := len(st.replies) > 0
	st.mu.Unlock()
	if kick {
		st.kickReplier()
	}
}

// finish marks the output ended and detaches the tap.
func (st *state) finish() {
	st.mu.Lock()
	st.eof = true
	st.replies = nil
	st.mu.Unlock()
	st.closeTap()
}

func (st *state) closeTap() {
	st.tapMu.Lock()
	tap := st.tap
	st.waitCancel()
	st.tapMu.Unlock()
	tap.Close()
}

// ended reports whether the session's output ended.
func (st *state) ended() bool {
	select {
	case <-st.done:
		return true
	default:
		return false
	}
}

// follow has tap report the session's resizes to st, whichever way they
// come; the tap's first byte is at offset base of st's stream.
func (st *state) follow(tap *core.Tap, base int64) {
	tap.OnResize(func(size core.Size, at int64) {
		// The terminal has this size now: it is counted even over budget.
		_ = st.m.reserveCells("resize", st, size, true)
		st.mu.Lock()
		st.markLocked(base+at, size)
		st.mu.Unlock()
	})
}

// sizeAtLocked returns the terminal size in force at stream offset off.
func (st *state) sizeAtLocked(off int64) core.Size {
	size := st.base
	for _, mk := range st.marks {
		if mk.off > off {
			break
		}
		size = mk.size
	}
	return size
}

// nextMarkLocked returns the offset of the first resize after off, or -1.
func (st *state) nextMarkLocked(off int64) int64 {
	for _, mk := range st.marks {
		if mk.off > off {
			return mk.off
		}
	}
	return -1
}

// markLocked records a resize at stream offset off (possibly ahead of the
// ring's end: output the drain has not taken in yet).
func (st *state) markLocked(off int64, size core.Size) {
	i := len(st.marks)
	for i > 0 && st.marks[i-1].off > off {
		i--
	}
	if i > 0 && st.marks[i-1].off == off {
		st.marks[i-1].size = size
		return
	}
	st.marks = slices.Insert(st.marks, i, sizeMark{off: off, size: size})
}

// trimMarksLocked folds resizes at or before offset start (the ring's
// start) into base.
func (st *state) trimMarksLocked(start int64) {
	i := 0
	for i < len(st.marks) && st.marks[i].off <= start {
		st.base = st.marks[i].size
		i++
	}
	if i > 0 {
		st.marks = append(st.marks[:0], st.marks[i:]...)
	}
}

// queueRepliesLocked queues answers for the terminal.
func (st *state) queueRepliesLocked(r []byte) {
	if len(r) == 0 || st.eof {
		return
	}
	if len(st.replies)+len(r) > maxQueuedReplies {
		st.repliesLost += int64(len(r))
		return
	}
	st.replies = append(st.replies, r...)
	if !st.replier {
		st.replier = true
		st.m.wg.Add(1)
		go st.replyLoop()
	}
}

func (st *state) kickReplier() {
	select {
	case st.replyKick <- struct{}{}:
	default:
	}
}

// replyLoop writes queued answers to the terminal, outside every lock, so
// that a program that does not read its input holds up nothing but its
// own answers.
func (st *state) replyLoop() {
	defer st.m.wg.Done()
	for {
		st.mu.Lock()
		r := st.replies
		st.replies = nil
		st.mu.Unlock()
		if len(r) > 0 {
			st.tapMu.Lock()
			tap := st.tap
			st.tapMu.Unlock()
			ctx, cancel := context.WithTimeout(st.m.ctx, st.m.opts.ReplyTimeout)
			err := tap.Reply(ctx, r)
			cancel()
			if err != nil {
				st.m.log.Debug("ptyseam/screen: an answer to a terminal query was not delivered", "session", st.id, "err", err)
			}
			continue
		}
		select {
		case <-st.replyKick:
		case <-st.done:
			return
		case <-st.m.ctx.Done():
			return
		}
	}
}

// waitOutput waits up to d for output to arrive and reports whether some
// did.
func (st *state) waitOutput(ctx context.Context, d time.Duration) bool {
	st.ringMu.Lock()
	if st.grew == nil {
		st.grew = make(chan struct{})
	}
	grew := st.grew
	st.ringMu.Unlock()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-grew:
		return true
	case <-t.C:
	case <-ctx.Done():
	case <-st.done:
	}
	return false
}

// redrawQuiet is the silence after which a program's reaction to keys
// counts as drawn. A program may look idle (blocked in a read or a poll)
// between drawing and the rest of its reaction: vi, after ":wq", writes
// its message, checks for typeahead, then leaves the alternate screen.
const redrawQuiet = 150 * time.Millisecond

// escapeQuiet is redrawQuiet after a final Escape, whose redraw a busy
// machine may deliver a little after the escape timeout.
const escapeQuiet = 250 * time.Millisecond

// redrawMax bounds the wait for a program's screen to stop changing after
// a keys send settled (a program that redraws all the time, a spinner or
// a clock, is never quiet).
const redrawMax = 2 * time.Second

// awaitRedraw waits until the program has drawn its reaction to keys: it
// takes in the output that arrives until escapeUntil (zero: none; keys
// ending with a bare Escape, which the program reads as a key only once
// its escape timeout passed), then returns once no output came for
// redrawQuiet (escapeQuiet after an Escape), or at deadline.
func (st *state) awaitRedraw(ctx context.Context, escapeUntil, deadline time.Time) {
	if escapeUntil.After(deadline) {
		deadline = escapeUntil.Add(redrawMax)
	}
	// The sink wakes waitOutput on every chunk as it arrives.
	for {
		now := time.Now()
		if !now.Before(escapeUntil) {
			break
		}
		st.waitOutput(ctx, escapeUntil.Sub(now))
		if ctx.Err() != nil || st.ended() {
			return
		}
	}
	quiet := redrawQuiet
	if !escapeUntil.IsZero() {
		quiet = escapeQuiet
	}
	for {
		left := time.Until(deadline)
		if left <= 0 || !st.waitOutput(ctx, min(quiet, left)) {
			return
		}
	}
}
