package remote

import (
	"context"
	"errors"

	"github.com/ptyseam/ptyseam/core"
)

// agentSaysEnded reports whether err is the agent's answer that the
// session's program has ended (its backend's SESSION_EXITED: the
// terminal has no foreground group left to signal, say), as opposed to
// the host's own error for a lost stream. The agent says so before the
// session here has learnt the exit, whose status comes as the answer to
// the wait call, on another stream.
func agentSaysEnded(err error) bool {
	return core.CodeOf(err) == core.CodeSessionExited && !errors.Is(err, ErrConnectionLost)
}

// endedCall is the error of a call (named op) that the agent refused with
// err because the program has ended (agentSaysEnded): it waits, bounded
// by ctx, until the session has learnt the exit, and then is the
// session's own SESSION_EXITED error that says what to do next, never
// the agent's words (see core.EndWait).
func (s *session) endedCall(ctx context.Context, op string, err error) error {
	return core.EndWait{Ended: s.Exited(), Gone: s.errGone}.Err(ctx, "agent "+op, err)
}

// errGone is the error of a call on a session whose program has ended.
func (s *session) errGone() error {
	if cause := s.ExitCause(); cause != nil {
		return &core.Error{Code: core.CodeSessionExited, Msg: lostNext, Err: cause}
	}
	return core.Errorf(core.CodeSessionExited, "the program on the agent's side has ended"+goneNext)
}

// goneNext says what to do with an ended session.
const goneNext = "; read its last output and exit status, then close the session"
