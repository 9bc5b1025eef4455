package docker

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/events"
	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// watchExit waits for the agent's session to end and, when its stream was
// lost (not closed by the session), asks the engine why before reporting
// the end: a container stopped under the session gives
// ErrContainerStopped and Status.Reason ReasonContainerStopped, a
// container that runs on, or ended by itself because its stdin ended
// (the agent's contract when its stream ends), or an engine that does not
// answer, gives ErrEngineLost and ReasonEngineLost. Both also match
// remote.ErrConnectionLost.
func (s *agentSession) watchExit() {
	defer close(s.exited)
	<-s.BackendSession.Exited()
	s.status = s.BackendSession.ExitStatus()
	if c, ok := s.BackendSession.(core.ExitCauser); ok {
		s.cause = c.ExitCause()
	}
	if s.cause == nil || !errors.Is(s.cause, remote.ErrConnectionLost) {
		return
	}
	select {
	case <-s.closing:
		return
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), engineAskWait)
	defer cancel()
	if s.stoppedUnder(ctx) {
		s.cause = fmt.Errorf("%w: %w", ErrContainerStopped, s.cause)
		s.status.Reason = ReasonContainerStopped
		s.b.log.Info("docker session ended: container stopped by someone else", "container", s.containerID)
		return
	}
	s.cause = fmt.Errorf("%w: %w", ErrEngineLost, s.cause)
	s.status.Reason = ReasonEngineLost
	s.b.log.Info("docker session ended: the connection to the engine was lost", "container", s.containerID)
}

// stoppedUnder reports whether someone else stopped, killed or removed the
// session's container. An existing container counts as stopped when it no
// longer runs or stops within dieEventWait: the agent's exec may see its
// stream end (the kernel killed it with the container's init) before the
// engine reports the container's exit. A created container ends by itself when the engine closes
// the agent's stdin (its attach connection was cut), so it counts as
// stopped only when it is gone, exited with a non-zero code, or the
// engine reports a stopping kill, an OOM kill or its removal. An engine
// that does not answer means the connection to it was lost: not stopped.
func (s *agentSession) stoppedUnder(ctx context.Context) bool {
	ins, err := s.b.cli.ContainerInspect(ctx, s.containerID, client.ContainerInspectOptions{})
	switch {
	case cerrdefs.IsNotFound(err):
		return true
	case err != nil || ins.Container.State == nil:
		return false
	case !s.created && !ins.Container.State.Running:
		return true
	case !s.created:
		return s.stopsSoon(ctx)
	case !ins.Container.State.Running && ins.Container.State.ExitCode != 0:
		return true
	}
	return s.stopReported(ctx, ins.Container.Created)
}

// stopReported asks the engine for the container's past events (since
// its creation, until now) and reports whether one of them stopped it: a
// kill with a stopping signal (the session never kills its container
// through the engine before Close), an OOM kill, or its removal.
func (s *agentSession) stopReported(ctx context.Context, created string) bool {
	since, err := time.Parse(time.RFC3339Nano, created)
	if err != nil {
		return false
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	now := time.Now()
	ev := s.b.cli.Events(ctx, client.EventsListOptions{
		Since: strconv.FormatInt(since.Unix(), 10),
		Until: fmt.Sprintf("%d.%09d", now.Unix(), now.Nanosecond()),
		Filters: client.Filters{}.Add("type", string(events.ContainerEventType)).
			Add("container", s.containerID),
	})
	for {
		select {
		case m := <-ev.Messages:
			switch {
			case m.Action == events.ActionKill && stopSignals[m.Actor.Attributes["signal"]],
				m.Action == events.ActionOOM, m.Action == events.ActionDestroy:
				return true
			}
		case <-ev.Err:
			return false
		}
	}
}

// stopsSoon waits up to dieEventWait for the container to stop.
func (s *agentSession) stopsSoon(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, dieEventWait)
	defer cancel()
	w := s.b.cli.ContainerWait(ctx, s.containerID, client.ContainerWaitOptions{Condition: container.WaitConditionNotRunning})
	select {
	case <-w.Result:
		return true
	case err := <-w.Error:
		return cerrdefs.IsNotFound(err)
	}
}
