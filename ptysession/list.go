package ptysession

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
)

// SessionInfo describes one of the owner's sessions (running, or exited
// and not yet closed): see [core.SessionInfo].
type SessionInfo = core.SessionInfo

// ListResult is the owner's live sessions in the order they were opened.
type ListResult struct {
	// Sessions are the live sessions, oldest first.
	Sessions []SessionInfo `json:"sessions"`
}

// List returns the owner's live terminal sessions in the order they were
// opened (an agent's jobs are listed by [Agent.Started]).
func (s *Sessions) List(ctx context.Context, owner *core.Owner) (ListResult, error) {
	if owner == nil {
		return ListResult{}, invalid("list", "", "owner", "is nil")
	}
	if err := ctx.Err(); err != nil {
		return ListResult{}, cancelled("list", "", err)
	}
	infos, err := s.t.List(owner)
	if err != nil {
		return ListResult{}, err
	}
	return ListResult{Sessions: infos}, nil
}
