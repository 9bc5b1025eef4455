package ptysession

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
)

// CloseResult says whether a close did the work.
type CloseResult struct {
	// Closed is true when this call closed the session (or joined a close
	// under way) and false when the session was already closed.
	Closed bool `json:"closed"`
}

// Close closes one of owner's sessions, returning only when every process
// it started is gone. Closing a session that
// was already closed returns Closed false; a session that never existed is
// NO_SESSION, another owner's FOREIGN_SESSION. A failed teardown returns a
// *core.CleanupError; a later Close retries.
func (s *Sessions) Close(ctx context.Context, owner *core.Owner, id core.SessionID) (CloseResult, error) {
	const op = "close"
	if err := checkCall(ctx, op, owner, id); err != nil {
		return CloseResult{}, err
	}
	closed, err := s.t.Close(ctx, owner, id, "closed by its owner")
	if err != nil {
		return CloseResult{}, err
	}
	return CloseResult{Closed: closed}, nil
}

// Dispose ends everything owner started: first the things of the
// attached companions (its background jobs, see [Sessions.Attach]), then
// every terminal session; it refuses the owner from then on
// (OWNER_DISPOSED). It returns the joined
// errors, if any. Without an attached jobs manager, the owner's jobs are
// not touched: dispose them with the manager's DisposeOwner.
func (s *Sessions) Dispose(ctx context.Context, owner *core.Owner) error {
	if owner == nil {
		return invalid("dispose", "", "owner", "is nil")
	}
	cerr := s.disposeCompanions(ctx, owner)
	return errJoin(cerr, s.t.DisposeOwner(ctx, owner))
}
