package ptysession

import (
	"sync"

	"github.com/ptyseam/ptyseam/core"
)

// Sessions is the facade. Create it with [New]; it is safe for concurrent
// use. The sessions, their owners' tail positions and their send slots
// live in the core.Terminals it wraps.
type Sessions struct {
	t    core.Terminals
	opts Options

	mu         sync.Mutex // guards companions
	companions []Companion
	owned      *core.Service // the service NewLocal made, shut down by Shutdown
}

// New returns a facade over t. t must not be nil. The facade keeps no
// state of its own per session: the tail positions and the send slots are
// the seam's.
func New(t core.Terminals, opts Options) *Sessions {
	return &Sessions{t: t, opts: opts.withDefaults()}
}

// Options returns the effective options (defaults filled in).
func (s *Sessions) Options() Options { return s.opts }

// Terminals returns the seam the facade works over.
func (s *Sessions) Terminals() core.Terminals { return s.t }
