package docker

import (
	"context"
	"errors"
	"fmt"
	"strings"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/core"
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
	return strings.Contains(msg, "is not running") || strings.Contains(msg, "stopped container") ||
		// An exec whose process ended and was reaped by the runtime
		// (its resize, under load, after the runtime deleted it).
		strings.Contains(msg, "deleted process")
}

// programEnded reports whether a call on the program that the engine
// failed with err failed because the program has ended: the engine says
// so in words engineSaysEnded knows, or, when its words are new (they
// change between versions of the engine and its runtime), its inspection
// of the exec or the container says the program no longer runs. An
// engine that cannot answer the inspection leaves err the engine's.
func (s *session) programEnded(ctx context.Context, err error) bool {
	if engineSaysEnded(err) {
		return true
	}
	if ctx.Err() != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, engineAskWait)
	defer cancel()
	if s.execID != "" {
		ins, ierr := s.b.cli.ExecInspect(ctx, s.execID, client.ExecInspectOptions{})
		return cerrdefs.IsNotFound(ierr) || ierr == nil && !ins.Running
	}
	ins, ierr := s.b.cli.ContainerInspect(ctx, s.containerID, client.ContainerInspectOptions{})
	return cerrdefs.IsNotFound(ierr) || ierr == nil && ins.Container.State != nil && !ins.Container.State.Running
}

// callFailed is the error of a call on the program (op names the
// engine's call, such as "docker resize") that the engine failed with
// err. When the program has ended (the session knows, or programEnded
// says so) it waits, bounded by ctx, until the session has learnt the
// exit, and then is the typed SESSION_EXITED error that says what to do next
// (with the cause of a stopped container or a lost engine), never the
// engine's (core.EndWait). When ctx ends first, or ended the engine's
// call, it is a CANCELLED error that names op and matches ctx's error.
// Any other failure is the engine's, named op.
func (s *session) callFailed(ctx context.Context, op string, err error) error {
	if s.isExited() || ctx.Err() != nil && errors.Is(err, ctx.Err()) || s.programEnded(ctx, err) {
		return core.EndWait{Ended: s.Exited(), Gone: s.errGone}.Err(ctx, op, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}
