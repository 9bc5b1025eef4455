package ptysession

import (
	"sync"
	"sync/atomic"

	"github.com/ptyseam/ptyseam/core"
)

// Sessions is the facade. Create it with [New]; it is safe for concurrent
// use. It keeps one tail cursor per (owner, session) and nothing else: the
// sessions themselves live in the core.Terminals it wraps.
type Sessions struct {
	t    core.Terminals
	opts Options

	mu         sync.Mutex
	cursors    map[cursorKey]*cursorState
	companions []Companion
	owned      *core.Service // the service NewLocal made, shut down by Shutdown
}

type cursorKey struct {
	owner *core.Owner
	id    core.SessionID
}

// cursorState is the facade's state of one session for its owner: the
// tail position, serialised so that two concurrent readers never get the
// same output, and the send slot with its count of queued sends.
type cursorState struct {
	mu  sync.Mutex
	cur core.Cursor

	slot      chan struct{} // holds a token while a facade send runs
	queued    int           // sends waiting for slot (guarded by Sessions.mu)
	finishing atomic.Bool   // the send holding slot has settled and is taking its delta
	// holderDone is the Done channel of the context of the send holding
	// slot: once it is closed that send was cancelled and only interrupts.
	holderDone atomic.Pointer[<-chan struct{}]
}

// New returns a facade over t. t must not be nil. When t tells closes
// (core.CloseNotifier, as *core.Service does), the facade drops a
// session's tail cursor whatever closed it; Close and Dispose drop their
// own sessions' cursors in any case.
func New(t core.Terminals, opts Options) *Sessions {
	s := &Sessions{t: t, opts: opts.withDefaults(), cursors: make(map[cursorKey]*cursorState)}
	if n, ok := t.(core.CloseNotifier); ok {
		n.OnClose(s.forget)
	}
	return s
}

// Options returns the effective options (defaults filled in).
func (s *Sessions) Options() Options { return s.opts }

// Terminals returns the seam the facade works over.
func (s *Sessions) Terminals() core.Terminals { return s.t }

func (s *Sessions) cursor(owner *core.Owner, id core.SessionID) *cursorState {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := cursorKey{owner, id}
	c := s.cursors[k]
	if c == nil {
		c = &cursorState{slot: make(chan struct{}, 1)}
		s.cursors[k] = c
	}
	return c
}

func (s *Sessions) forget(owner *core.Owner, id core.SessionID) {
	s.mu.Lock()
	delete(s.cursors, cursorKey{owner, id})
	s.mu.Unlock()
}

func (s *Sessions) forgetOwner(owner *core.Owner) {
	s.mu.Lock()
	for k := range s.cursors {
		if k.owner == owner {
			delete(s.cursors, k)
		}
	}
	s.mu.Unlock()
}

// cursorCount reports how many cursors are held (for tests).
func (s *Sessions) cursorCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.cursors)
}
