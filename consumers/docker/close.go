package docker

import (
	"context"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// Close ends the session. For a new container it removes the container
// (the engine kills its init and with it every process in the container's
// PID namespace, setsid escapees included) and checks that the engine no
// longer knows it. For an exec it kills every process of the container
// whose environment carries the session's marker, repeating until none is
// left. A Close that cannot prove this returns *core.CleanupError and may
// be retried.
func (s *session) Close(ctx context.Context) error {
	return s.closer.Do(func() error { return s.closeAttempt(ctx) })
}

// closeExitWait bounds how long Close, once the session's processes are
// gone, waits for the engine's report of the program's exit (a failure
// bound: the report follows at once unless the engine holds it).
const closeExitWait = engineAskWait

// closeAttempt is one attempt at Close; a failed one may be retried.
func (s *session) closeAttempt(ctx context.Context) error {
	var err error
	if s.created {
		err = s.closeContainer(ctx)
	} else {
		err = s.sweep(ctx, "KILL")
	}
	if err != nil {
		return &core.CleanupError{Err: err}
	}
	if s.conn != nil && s.following {
		// The program is gone: its stream ends, and its watcher learns
		// the exit, unless the engine stopped reporting it (a stream it
		// holds): the exit then stays unknown ("closed").
		t := time.NewTimer(closeExitWait)
		select {
		case <-s.Exited():
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	if s.conn != nil {
		_ = s.conn.Close()
	}
	s.cancel()
	s.relOnce.Do(func() { close(s.closed) })
	s.wg.Wait()
	s.relay.Wait()
	s.setExit(core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: "closed"})
	return nil
}
