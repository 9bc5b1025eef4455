//go:build unix

package localpty

import (
	"context"
	"fmt"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// Close terminates every process the session started and releases the
// terminal. It hangs up the terminal (closing the master, which also ends a
// blocked Read), sends SIGHUP, SIGTERM and SIGCONT to every process of the
// session, waits up to the grace period, kills what is left, reaps the
// top-level process and removes the session's cgroup leaf. It returns only
// when the processes are gone, or a *core.CleanupError naming survivors
// when ctx ends first. Concurrent calls share one teardown (a later caller
// waits for the running one); a failed Close may be retried; Close after a
// successful Close returns nil.
func (s *session) Close(ctx context.Context) error {
	select {
	case s.closeSem <- struct{}{}:
	default:
		select {
		case s.closeSem <- struct{}{}:
		case <-ctx.Done():
			return &core.CleanupError{Err: fmt.Errorf("waiting for a concurrent close: %w", ctx.Err())}
		}
	}
	defer func() { <-s.closeSem }()
	if s.closed {
		return nil
	}
	fg, _ := s.foregroundPGID("close") // before the terminal goes away
	s.closeMaster()
	if err := s.terminate(ctx, fg); err != nil {
		s.log.Warn("localpty: close left processes behind", "pid", s.pid, "err", err)
		return err
	}
	select {
	case <-s.exit.Exited():
	case <-ctx.Done():
		return &core.CleanupError{Err: fmt.Errorf("reaping the top-level process: %w", ctx.Err()), Survivors: []int{s.pid}}
	}
	if err := s.plat.release(ctx); err != nil {
		s.log.Warn("localpty: cannot remove the session's cgroup", "pid", s.pid, "err", err)
		return &core.CleanupError{Err: err}
	}
	s.closed = true
	s.log.Debug("localpty: closed", "pid", s.pid, "status", s.ExitStatus().String())
	return nil
}

// sleepCtx sleeps for d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
