package ptysession

import (
	"context"
	"errors"
	"slices"

	"github.com/ptyseam/ptyseam/core"
)

// Companion manages what an agent starts beside its terminals, under the
// same owner: *jobs.Manager (background jobs) is one. Attach it with
// [Sessions.Attach] so that one place lists and disposes everything an
// agent started ([Agent.Started], [Agent.Dispose], [Sessions.Dispose]).
type Companion interface {
	// Kind names what the companion holds ("job").
	Kind() string
	// Started describes what owner started and has not dropped, oldest
	// first, in the shape of session descriptions.
	Started(ctx context.Context, owner *core.Owner) ([]core.SessionInfo, error)
	// DisposeOwner stops and forgets everything owner started.
	DisposeOwner(ctx context.Context, owner *core.Owner) error
}

// Attach adds companions whose things Dispose ends, before the owner's
// terminals, and Agent.Started lists after them. A companion with a
// Shutdown(ctx) error method is shut down by [Sessions.Shutdown] before the
// service.
func (s *Sessions) Attach(cs ...Companion) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.companions = append(s.companions, cs...)
}

func (s *Sessions) attached() []Companion {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.companions)
}

// disposeCompanions disposes owner's things in every companion, the most
// recently attached first.
func (s *Sessions) disposeCompanions(ctx context.Context, owner *core.Owner) error {
	cs := s.attached()
	var errs []error
	for i := len(cs) - 1; i >= 0; i-- {
		errs = append(errs, cs[i].DisposeOwner(ctx, owner))
	}
	return errors.Join(errs...)
}

// shutdownCompanions shuts down the companions that can be.
func (s *Sessions) shutdownCompanions(ctx context.Context) error {
	cs := s.attached()
	var errs []error
	for i := len(cs) - 1; i >= 0; i-- {
		if sd, ok := cs[i].(interface{ Shutdown(context.Context) error }); ok {
			errs = append(errs, sd.Shutdown(ctx))
		}
	}
	return errors.Join(errs...)
}
