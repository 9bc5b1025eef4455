package remote

import (
	"context"
	"errors"

	"github.com/ptyseam/ptyseam/core"
)

// Session is a session on an agent that a backend started somewhere of
// its own, such as a container or a pod, and reached over a stream it
// opened there (an attach, an exec). It is the agent's session plus what
// the backend adds: Close also ends the connection to the agent and then
// runs the backend's teardown, and a lost stream is explained by the
// backend before the session reports its end.
//
// Its core.Prober passes the settle question, the prompt marker, the
// control characters, the echo mode, who reads the terminal and which
// program holds it through to the agent's session, and answers the exit
// cause itself; the other questions answer core.ErrUnsupported.
// Create it with NewSession.
type Session struct {
	core.BackendSession
	core.UnimplementedProber

	conn   *Conn
	hooks  SessionHooks
	closer core.CloseGuard
	exit   core.ExitLatch // set, with its cause, once watchExit has classified the end
}

// SessionHooks are the backend's own parts of a Session. Teardown is
// required; the others may be nil.
type SessionHooks struct {
	// Teardown ends the stream to the agent and removes what the backend
	// created for the session (a container, a pod). Close calls it once
	// the agent's session has ended and the connection to the agent is
	// closed; when it fails, Close fails with a core.CleanupError and a
	// later Close calls it again.
	Teardown func(ctx context.Context) error
	// Lost is called when the stream to the agent was lost before any
	// Close began (the agent's session ended with an error matching
	// ErrConnectionLost). It gets the agent session's status and cause
	// and returns the ones the Session reports, typically the cause
	// wrapped in a backend error that says why the stream was lost.
	// closing is closed when Close begins: Lost should give up then.
	Lost func(closing <-chan struct{}, st core.Status, cause error) (core.Status, error)
	// Ended is called once the agent's session has ended (after Lost,
	// when that was called), before the Session reports its end.
	Ended func()
	// Gone reports whether the place the agent ran in is gone (a
	// stopped container). Close then passes over a failure to close the
	// agent's session, which could not have been reached.
	Gone func(ctx context.Context) bool
}

// NewSession wraps agent, a session that conn's Spawn returned, with the
// backend's hooks, and starts following its end.
func NewSession(conn *Conn, agent core.BackendSession, hooks SessionHooks) *Session {
	s := &Session{BackendSession: agent, conn: conn, hooks: hooks}
	go s.watchExit()
	return s
}

// Close closes the session on the agent (which ends its whole process
// tree and proves it), then the connection to the agent, then runs the
// backend's teardown. Calls are serialised; a failed Close may be
// retried, and a Close after a successful one returns nil.
func (s *Session) Close(ctx context.Context) error {
	return s.closer.Do(func() error { return s.closeAttempt(ctx) })
}

// closeAttempt is one attempt at Close.
func (s *Session) closeAttempt(ctx context.Context) error {
	err := s.BackendSession.Close(ctx)
	if err != nil && !errors.Is(err, ErrConnectionLost) && (s.hooks.Gone == nil || !s.hooks.Gone(ctx)) {
		return err
	}
	select {
	case <-s.exit.Exited():
	case <-ctx.Done():
		return &core.CleanupError{Err: ctx.Err()}
	}
	_ = s.conn.Close()
	if err := s.hooks.Teardown(ctx); err != nil {
		return &core.CleanupError{Err: err}
	}
	return nil
}

// watchExit waits for the agent's session to end and records its end,
// as the backend's Lost explains it when the stream was lost.
func (s *Session) watchExit() {
	<-s.BackendSession.Exited()
	st := s.BackendSession.ExitStatus()
	cause := core.ProberOf(s.BackendSession).ExitCause()
	if s.hooks.Lost != nil && cause != nil && errors.Is(cause, ErrConnectionLost) && !s.closer.IsClosing() {
		st, cause = s.hooks.Lost(s.closer.Closing(), st, cause)
	}
	if s.hooks.Ended != nil {
		s.hooks.Ended()
	}
	s.exit.SetCause(st, cause)
}

// Exited is closed when the agent's session has ended and the backend
// has said why (SessionHooks.Lost).
func (s *Session) Exited() <-chan struct{} { return s.exit.Exited() }

// ExitStatus returns the agent session's exit status, as the backend's
// Lost hook changed it when the stream was lost.
func (s *Session) ExitStatus() core.Status { return s.exit.ExitStatus() }

// ExitCause returns the agent session's cause (a lost stream matches
// ErrConnectionLost), as the backend's Lost hook wrapped it.
func (s *Session) ExitCause() error { return s.exit.Cause() }

// Facts reports that the session answers the settle question and, from
// the agent's session, whether its shell prints the prompt marker.
func (s *Session) Facts() core.Facts {
	return core.Facts{PromptMarker: core.ProberOf(s.BackendSession).Facts().PromptMarker, WatchesInput: true}
}

// Foreground forwards to the agent's session (core.Prober).
func (s *Session) Foreground() (core.InputBaseline, error) {
	return core.ProberOf(s.BackendSession).Foreground()
}

// InputWait forwards to the agent's session (core.Prober).
func (s *Session) InputWait(base core.InputBaseline, taken uint64) (core.InputWait, error) {
	return core.ProberOf(s.BackendSession).InputWait(base, taken)
}

// ControlChar forwards to the agent's session (core.Prober).
func (s *Session) ControlChar(sig core.Signal) (core.ControlKey, error) {
	return core.ProberOf(s.BackendSession).ControlChar(sig)
}

// EchoMode forwards to the agent's session (core.Prober).
func (s *Session) EchoMode() (core.EchoMode, error) {
	return core.ProberOf(s.BackendSession).EchoMode()
}

// DescribeReader forwards to the agent's session (core.Prober).
func (s *Session) DescribeReader() (core.TerminalReader, error) {
	return core.ProberOf(s.BackendSession).DescribeReader()
}

// DescribeForeground forwards to the agent's session (core.Prober).
func (s *Session) DescribeForeground() (core.ForegroundProgram, bool, error) {
	return core.ProberOf(s.BackendSession).DescribeForeground()
}

var _ core.Prober = (*Session)(nil)
