package docker

import (
	"context"
	"fmt"
	"strings"

	cerrdefs "github.com/containerd/errdefs"
)

// engineSaysEnded reports whether the engine refused a call on a session's
// program (a resize, a kill) because the program or its container has
// ended: the container is not running or gone, the exec is gone or its
// process stopped. The engine says so before the session has learnt the
// exit, whose report comes on another connection (the container's
// events, the exec's inspection).
func engineSaysEnded(err error) bool {
	if cerrdefs.IsNotFound(err) {
		return true // no such container, no such exec
	}
	msg := err.Error()
	return strings.Contains(msg, "is not running") || strings.Contains(msg, "stopped container")
}

// endedCall is the error of a call (named op) that the engine refused
// with err because the program has ended (engineSaysEnded): it waits,
// bounded by ctx, until the session has learnt the exit, and then is the
// typed SESSION_EXITED error that says what to do next (with the cause of
// a stopped container or a lost engine), never the engine's. When ctx
// ends first, the error names op and matches both err and ctx's error.
func (s *session) endedCall(ctx context.Context, op string, err error) error {
	select {
	case <-s.Exited():
		return s.errGone()
	case <-ctx.Done():
		return fmt.Errorf("%s: %w (the session had not learnt the exit when the caller gave up: %w)", op, err, ctx.Err())
	}
}
