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
	sends      map[sessionKey]*sendState
	companions []Companion
	owned      *core.Service // the service NewLocal made, shut down by Shutdown
}

type sessionKey struct {
	owner *core.Owner
	id    core.SessionID
}

// sendState is the facade's state of one session for its owner: the
// send slot with its count of queued sends (the tail position is the
// seam's: core.Service.Tail).
type sendState struct {
	slot      chan struct{} // holds a token while a facade send runs
	queued    int           // sends waiting for slot (guarded by Sessions.mu)
	finishing atomic.Bool   // the send holding slot has settled and is taking its delta
	// holderDone is the Done channel of the context of the send holding
	// slot: once it is closed that send was cancelled and only interrupts.
	holderDone atomic.Pointer[<-chan struct{}]
}

// New returns a facade over t. t must not be nil. When t tells closes
// (core.CloseNotifier, as *core.Service does), the facade drops a
// session's state whatever closed it; Close and Dispose drop their own
// sessions' state in any case.
func New(t core.Terminals, opts Options) *Sessions {
	s := &Sessions{t: t, opts: opts.withDefaults(), sends: make(map[sessionKey]*sendState)}
	if n, ok := t.(core.CloseNotifier); ok {
		n.OnClose(s.forget)
	}
	return s
}

// Options returns the effective options (defaults filled in).
func (s *Sessions) Options() Options { return s.opts }

// Terminals returns the seam the facade works over.
func (s *Sessions) Terminals() core.Terminals { return s.t }

func (s *Sessions) sendState(owner *core.Owner, id core.SessionID) *sendState {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := sessionKey{owner, id}
	c := s.sends[k]
	if c == nil {
		c = &sendState{slot: make(chan struct{}, 1)}
		s.sends[k] = c
	}
	return c
}

func (s *Sessions) forget(owner *core.Owner, id core.SessionID) {
	s.mu.Lock()
	delete(s.sends, sessionKey{owner, id})
	s.mu.Unlock()
}

func (s *Sessions) forgetOwner(owner *core.Owner) {
	s.mu.Lock()
	for k := range s.sends {
		if k.owner == owner {
			delete(s.sends, k)
		}
	}
	s.mu.Unlock()
}

// sendStateCount reports how many send states are held (for tests).
func (s *Sessions) sendStateCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sends)
}
