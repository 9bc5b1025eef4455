package ptysession

import (
	"context"
	"errors"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// NewLocal returns a facade over a new service of its own with the local
// PTY backends ("shell": an interactive bash per session, and "exec":
// argv), configured by opts.Service (the zero value is usable). Call
// [Sessions.Shutdown] when done: it shuts the attached companions and the
// service down.
func NewLocal(opts Options) (*Sessions, error) {
	c := core.New(opts.Service)
	if err := localpty.Register(c); err != nil {
		return nil, errors.Join(err, c.Shutdown(context.Background()))
	}
	s := New(c, opts)
	s.owned = c
	return s, nil
}

// Service returns the seam as a *core.Service (for consumers that need the
// service itself, such as jobs.New), or nil when the facade works over
// another core.Terminals.
func (s *Sessions) Service() *core.Service {
	c, _ := s.t.(*core.Service)
	return c
}

// Shutdown shuts the attached companions down (those with a Shutdown
// method: a jobs manager stops its jobs), then the service NewLocal made,
// closing every session of every owner. On a facade made with [New] it
// shuts only the companions down: the caller owns the service.
func (s *Sessions) Shutdown(ctx context.Context) error {
	err := s.shutdownCompanions(ctx)
	if s.owned != nil {
		err = errors.Join(err, s.owned.Shutdown(ctx))
	}
	return err
}
