//go:build unix && !linux

package localpty

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/core"
)

// terminate ends the session without /proc: it signals the top-level
// process's group and the last foreground group (fg), waits up to the
// grace period, then kills both groups. Processes that left those groups
// (setsid, or a shell's background jobs in their own groups) are not found
// here; see docs/localpty.md.
func (s *session) terminate(ctx context.Context, fg int) error {
	groups := []int{s.pid}
	if fg > 0 && fg != s.pid {
		groups = append(groups, fg)
	}
	signalGroups(groups, unix.SIGHUP, unix.SIGTERM, unix.SIGCONT)
	graceEnd := time.Now().Add(s.opts.CloseGrace)
	for time.Now().Before(graceEnd) && groupsAlive(groups) {
		if err := sleepCtx(ctx, 5*time.Millisecond); err != nil {
			return &core.CleanupError{Err: err, Survivors: groups}
		}
	}
	for groupsAlive(groups) {
		signalGroups(groups, unix.SIGKILL)
		if err := sleepCtx(ctx, 5*time.Millisecond); err != nil {
			return &core.CleanupError{Err: fmt.Errorf("process groups survived: %w", err), Survivors: groups}
		}
	}
	return nil
}

func signalGroups(groups []int, sigs ...unix.Signal) {
	for _, g := range groups {
		for _, sig := range sigs {
			_ = unix.Kill(-g, sig)
		}
	}
}

// groupsAlive reports whether any of the groups still has a member (the
// unreaped top-level zombie is reaped by the session's waiter).
func groupsAlive(groups []int) bool {
	for _, g := range groups {
		if err := unix.Kill(-g, 0); err == nil || !errors.Is(err, unix.ESRCH) {
			return true
		}
	}
	return false
}
