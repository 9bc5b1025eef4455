package jobs

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
)

// Service is what a [Manager] runs jobs on: the seam's calls plus raw
// writes, taps, exit waits and backend registration. *core.Service
// implements it.
type Service interface {
	core.Terminals
	// Write writes data to a session as is.
	Write(ctx context.Context, owner *core.Owner, id core.SessionID, data []byte) (int, error)
	// Tap returns a tap that sees the session's output from now on.
	Tap(owner *core.Owner, id core.SessionID) (*core.Tap, error)
	// Wait blocks until the session's program exited (or ctx ends).
	Wait(ctx context.Context, owner *core.Owner, id core.SessionID) (core.Status, error)
	// Backends lists the registered backend types.
	Backends() []string
	// Register adds a backend (the pipe backend, when jobs need it).
	Register(b core.Backend) (unregister func(), err error)
}

var _ Service = (*core.Service)(nil)

// isNilService reports whether svc is a typed nil (*core.Service)(nil).
func isNilService(svc Service) bool {
	s, ok := svc.(*core.Service)
	return ok && s == nil
}
