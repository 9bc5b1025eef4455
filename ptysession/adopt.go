package ptysession

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
)

// Adopt takes a session that was driven past the facade (spawned on the
// seam, logged in with consumers/ssh/openssh, set up with shellrun) into
// the facade where it stands: owner's tail position moves to the
// session's current end, so that the next Send's delta or Tail's text
// starts with what comes next, not with everything since the spawn (a
// login's host key question, password prompt and message of the day).
// An unterminated last line (the shell's prompt) counts as returned: the
// next output continues it. The output passed over stays in the
// scrollback for [Sessions.Read]. Adopt returns the session's info; it is
// owner-checked like every call (NO_SESSION, FOREIGN_SESSION). Adopting
// a session the facade already reads moves its position to the end as
// well.
func (s *Sessions) Adopt(ctx context.Context, owner *core.Owner, id core.SessionID) (SessionInfo, error) {
	const op = "adopt"
	if err := checkCall(ctx, op, owner, id); err != nil {
		return SessionInfo{}, err
	}
	info, err := s.t.Info(owner, id)
	if err != nil {
		return SessionInfo{}, core.WithOp(err, op)
	}
	if err := s.Skip(owner, id); err != nil {
		return SessionInfo{}, core.WithOp(err, op)
	}
	return info, nil
}

// Adopt is [Sessions.Adopt] as the agent.
func (a *Agent) Adopt(ctx context.Context, id SessionID) (SessionInfo, error) {
	return a.s.Adopt(ctx, a.owner, id)
}

// Adopt is [Sessions.Adopt] on the session the name stands for (a
// session spawned with that name, as openssh.Options.Name gives one).
func (t *Terminal) Adopt(ctx context.Context) (SessionInfo, error) {
	id, err := t.id(ctx, "adopt")
	if err != nil {
		return SessionInfo{}, err
	}
	return t.s.Adopt(ctx, t.owner, id)
}
