package testharness

import (
	"sync"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// RegistryOptions configure a [Registry]. Zero fields take the defaults
// named in their comments, which match [core.Options] except for the
// silence windows: the registry settles by exit, a prompt marker or a short
// silence, never by probing processes.
type RegistryOptions struct {
	// QuietWindow is the output silence after which a send settles as
	// inferred_idle unless the request sets one. Default 150ms.
	QuietWindow time.Duration
	// SpawnQuiet is the silence that ends Spawn's wait for the initial
	// output. Default 150ms.
	SpawnQuiet time.Duration
	// SpawnSettle bounds Spawn's wait for the initial output. Default 5s.
	SpawnSettle time.Duration
	// SendTimeout is a send's absolute deadline unless the request sets
	// one. Default core.DefaultSendTimeout.
	SendTimeout time.Duration
	// CloseTimeout bounds a close whose context has no deadline. Default
	// core.DefaultCloseTimeout.
	CloseTimeout time.Duration
	// Scrollback bounds each session's retained output unless the spawn
	// request overrides them. Default core.DefaultScrollback.
	Scrollback core.ScrollbackLimits
	// MaxSendBytes bounds one send. Default core.DefaultMaxSendBytes.
	MaxSendBytes int
	// MaxResultBytes bounds a send result, a delta and a page. Default
	// core.DefaultMaxResultBytes.
	MaxResultBytes int
	// MaxPageLines is the page size of a request with Count 0. Default
	// core.DefaultPageLines.
	MaxPageLines int
	// MaxSessionsPerOwner limits live sessions per owner (0: no limit).
	MaxSessionsPerOwner int
}

// Default silence windows of a Registry.
const (
	DefaultRegistryQuietWindow = 150 * time.Millisecond
	DefaultRegistrySpawnQuiet  = 150 * time.Millisecond
	DefaultRegistrySpawnSettle = 5 * time.Second
)

func (o RegistryOptions) withDefaults() RegistryOptions {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	defInt := func(n *int, v int) {
		if *n <= 0 {
			*n = v
		}
	}
	def(&o.QuietWindow, DefaultRegistryQuietWindow)
	def(&o.SpawnQuiet, DefaultRegistrySpawnQuiet)
	def(&o.SpawnSettle, DefaultRegistrySpawnSettle)
	def(&o.SendTimeout, core.DefaultSendTimeout)
	def(&o.CloseTimeout, core.DefaultCloseTimeout)
	o.Scrollback = limitsWithDefaults(o.Scrollback, core.DefaultScrollback)
	defInt(&o.MaxSendBytes, core.DefaultMaxSendBytes)
	defInt(&o.MaxResultBytes, core.DefaultMaxResultBytes)
	defInt(&o.MaxPageLines, core.DefaultPageLines)
	return o
}

func limitsWithDefaults(l, d core.ScrollbackLimits) core.ScrollbackLimits {
	if l.MaxLines <= 0 {
		l.MaxLines = d.MaxLines
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.MaxLineBytes <= 0 {
		l.MaxLineBytes = d.MaxLineBytes
	}
	return l
}

// Registry is the reference implementation of [core.Terminals]: one mutex
// guards every map, every session's scrollback and every send; each session
// has one goroutine that moves its backend's output into its scrollback.
// Sends settle on session exit, on an OSC 133;B prompt marker with nothing
// after it, on output silence, or at their deadline; the registry never
// probes processes, so it reports inferred_idle where [core.Service] may
// report stdin_read. Create it with [NewRegistry]; stop it with
// [Registry.Shutdown].
type Registry struct {
	opts RegistryOptions

	mu       sync.Mutex
	backends map[string]core.Backend
	setupErr error                           // a bad backend given to NewRegistry
	sessions map[core.SessionID]*fakeSession // published, not yet closed
	tombs    map[core.SessionID]*core.Owner  // closed sessions and their owners
	owners   map[*core.Owner]*fakeOwner      // owners with sessions or spawns
	disposed map[*core.Owner]bool            // disposed owners
	stopping bool                            // Shutdown was called
	spawns   sync.WaitGroup                  // spawns in flight
}

// fakeOwner is one owner's state.
type fakeOwner struct {
	sessions []*fakeSession  // publication order
	names    map[string]bool // names reserved by spawns in flight
	pending  int
}

var _ core.Terminals = (*Registry)(nil)

// NewRegistry returns a Registry with default options that runs sessions on
// the given backends, selected by their Type. A nil backend, an empty type
// or a type given twice makes every Spawn fail with the error
// [Registry.Register] would have returned (INVALID_ARGUMENT or
// DUPLICATE_BACKEND), so that a misconfigured test fails loudly.
func NewRegistry(backends ...core.Backend) *Registry {
	return NewRegistryWithOptions(RegistryOptions{}, backends...)
}

// NewRegistryWithOptions is [NewRegistry] with options.
func NewRegistryWithOptions(opts RegistryOptions, backends ...core.Backend) *Registry {
	r := &Registry{
		opts:     opts.withDefaults(),
		backends: make(map[string]core.Backend),
		sessions: make(map[core.SessionID]*fakeSession),
		tombs:    make(map[core.SessionID]*core.Owner),
		owners:   make(map[*core.Owner]*fakeOwner),
		disposed: make(map[*core.Owner]bool),
	}
	for _, b := range backends {
		if _, err := r.Register(b); err != nil && r.setupErr == nil {
			r.setupErr = err
		}
	}
	return r
}

// Register adds a backend under its Type, as [core.Service.Register] does,
// so that localpty.Register works on a Registry too. It returns a function
// that removes exactly this registration.
func (r *Registry) Register(b core.Backend) (unregister func(), err error) {
	if b == nil {
		return nil, &core.Error{Code: core.CodeInvalidArgument, Op: "register", Msg: "backend is nil"}
	}
	typ := b.Type()
	if typ == "" {
		return nil, &core.Error{Code: core.CodeInvalidArgument, Op: "register", Msg: "backend type is empty"}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, taken := r.backends[typ]; taken {
		return nil, &core.Error{Code: core.CodeDuplicateBackend, Op: "register", Msg: "a backend of type " + typ + " is registered already"}
	}
	r.backends[typ] = b
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.backends[typ] == b {
				delete(r.backends, typ)
			}
		})
	}, nil
}

// Options returns the registry's effective options.
func (r *Registry) Options() RegistryOptions { return r.opts }

// errClosedOwn marks the lookup of a session its own owner already closed.
type errClosedOwn struct{}

func (errClosedOwn) Error() string { return "closed" }

// lookupLocked authorizes owner for id exactly as core.Service does. r.mu is
// held.
func (r *Registry) lookupLocked(op string, owner *core.Owner, id core.SessionID) (*fakeSession, error) {
	switch {
	case owner == nil:
		return nil, seamError(core.CodeInvalidArgument, op, id, "owner is nil")
	case r.disposed[owner]:
		return nil, seamError(core.CodeOwnerDisposed, op, id, "the owner was disposed")
	}
	if s, ok := r.sessions[id]; ok {
		if s.owner != owner {
			return nil, seamError(core.CodeForeignSession, op, id, "the session belongs to another owner")
		}
		return s, nil
	}
	if o, ok := r.tombs[id]; ok {
		if o != owner {
			return nil, seamError(core.CodeForeignSession, op, id, "the session belongs to another owner")
		}
		return nil, &core.Error{Code: core.CodeNoSession, Op: op, Session: id, Msg: "the session was closed", Err: errClosedOwn{}}
	}
	return nil, seamError(core.CodeNoSession, op, id, "no such session")
}

func (r *Registry) lookup(op string, owner *core.Owner, id core.SessionID) (*fakeSession, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lookupLocked(op, owner, id)
}

func seamError(code core.Code, op string, id core.SessionID, msg string) *core.Error {
	return &core.Error{Code: code, Op: op, Session: id, Msg: msg}
}
