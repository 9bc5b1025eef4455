package ptysession

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
)

// Sessions by name: a toolkit addresses terminals by the names its agents
// give them (OpenRequest.Name). A name is unique among the owner's running
// sessions; a session whose program has exited frees its name (it stays
// readable by id until closed), so the name can be opened again.

// Find returns owner's session named name: the running one, or else the
// newest exited one not yet closed. An unknown name is NO_SESSION.
func (s *Sessions) Find(ctx context.Context, owner *core.Owner, name string) (SessionInfo, error) {
	if name == "" {
		return SessionInfo{}, invalid("find", "", "name", "is empty")
	}
	l, err := s.List(ctx, owner)
	if err != nil {
		return SessionInfo{}, err
	}
	var found *SessionInfo
	for i := range l.Sessions {
		in := &l.Sessions[i]
		if in.Name != name {
			continue
		}
		if !in.Status.Exited() {
			return *in, nil
		}
		found = in // the newest exited one wins
	}
	if found == nil {
		return SessionInfo{}, &core.Error{Code: core.CodeNoSession, Op: "find", Msg: "the owner has no session named " + core.QuoteForMsg(name)}
	}
	return *found, nil
}

// OpenOrGet returns owner's running session named req.Name, or opens one
// with req when there is none (opened reports which). For a session that
// was already running, InitialOutput is the output owner has not been
// given yet (output is returned once) and the command is not typed again.
// req.Name must not be empty.
func (s *Sessions) OpenOrGet(ctx context.Context, owner *core.Owner, req OpenRequest) (res OpenResult, opened bool, err error) {
	if req.Name == "" {
		return OpenResult{}, false, invalid("open", "", "name", "is empty: OpenOrGet finds sessions by name")
	}
	for range 2 { // a concurrent OpenOrGet may take the name between the look-up and the open
		if in, err := s.Find(ctx, owner, req.Name); err == nil && !in.Status.Exited() {
			r, err := s.got(owner, in)
			return r, false, err
		} else if err != nil && core.CodeOf(err) != core.CodeNoSession {
			return OpenResult{}, false, err
		}
		res, err = s.Open(ctx, owner, req)
		if core.CodeOf(err) != core.CodeDuplicateName {
			return res, err == nil, err
		}
	}
	return OpenResult{}, false, err
}

// got describes a running session for OpenOrGet.
func (s *Sessions) got(owner *core.Owner, in SessionInfo) (OpenResult, error) {
	d, err := s.consume(owner, in.ID, MaxLines)
	if err != nil {
		return OpenResult{}, err
	}
	return OpenResult{SessionID: in.ID, PID: in.PID, Status: in.Status, SpawnOutput: core.SpawnOutput{InitialOutput: d.Text, Truncated: d.Truncated}}, nil
}
