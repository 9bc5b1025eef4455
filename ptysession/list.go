package ptysession

import (
	"context"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// SessionInfo describes one of the owner's sessions (running, or exited
// and not yet closed).
type SessionInfo struct {
	// SessionID is the session's id.
	SessionID core.SessionID `json:"sessionId"`
	// Name is the display name given at open, if any.
	Name string `json:"name,omitempty"`
	// Type is the backend type.
	Type string `json:"type"`
	// PID is the top-level process id (omitted where unknown).
	PID int `json:"pid,omitempty"`
	// Status is the session's status.
	Status core.Status `json:"status"`
	// Created is when the session was spawned.
	Created time.Time `json:"created"`
	// TotalLines counts the lines printed so far.
	TotalLines int64 `json:"totalLines"`
}

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
	out := ListResult{Sessions: make([]SessionInfo, 0, len(infos))}
	for _, in := range infos {
		out.Sessions = append(out.Sessions, sessionInfo(in))
	}
	return out, nil
}

func sessionInfo(in core.SessionInfo) SessionInfo {
	return SessionInfo{
		SessionID: in.ID, Name: in.Name, Type: in.Type, PID: in.PID,
		Status: in.Status, Created: in.Created, TotalLines: in.TotalLines,
	}
}
