package docker

import (
	"context"
	"fmt"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/core"
)

// lost explains a lost stream to the agent (remote.SessionHooks.Lost)
// from the container's events (stoppedUnder): a container stopped under
// the session gives ErrContainerStopped and Status.Reason
// ReasonContainerStopped; a container that runs on, or ended by itself
// because its stdin ended (the agent's contract when its stream ends), or
// an engine that does not answer, gives ErrEngineLost and
// ReasonEngineLost. Both also match remote.ErrConnectionLost.
func (s *agentSession) lost(closing <-chan struct{}, st core.Status, cause error) (core.Status, error) {
	if s.stoppedUnder(context.Background(), closing) {
		st.Reason = ReasonContainerStopped
		s.b.log.Info("docker session ended: container stopped by someone else", "container", s.containerID)
		return st, fmt.Errorf("%w: %w", ErrContainerStopped, cause)
	}
	st.Reason = ReasonEngineLost
	s.b.log.Info("docker session ended: the connection to the engine was lost", "container", s.containerID)
	return st, fmt.Errorf("%w: %w", ErrEngineLost, cause)
}

// stoppedUnder reports whether someone else stopped, killed or removed
// the session's container, from its events (containerWatch, subscribed
// before the agent started) once the agent's stream has ended:
//
//   - A new container counts as stopped when the engine reported a kill
//     with a stopping signal (the session never kills its container
//     through the engine before Close), an OOM kill, its removal, or a
//     non-zero exit. It ends by itself, with exit code 0, when the engine
//     closes the agent's stdin (its attach connection was cut): a die with
//     code 0 and no such kill before it is not a stop.
//   - An existing container counts as stopped when it died or was
//     removed: the kernel kills the agent's exec with the container's
//     init, so its stream may end just before the engine reports that.
//
// A cut of the engine connections breaks the events stream at the same
// moment as the agent's stream: the engine is then asked for the
// container's state on a new connection (engineSays), and an engine that
// does not answer means the connection was lost: not stopped. A Close
// that begins (closing) ends the wait: not stopped. The wait
// for an event is bounded (verdictWait) in case the agent's stream ended
// alone (the agent was killed inside a container that runs on); the
// engine is then asked too.
func (s *agentSession) stoppedUnder(ctx context.Context, closing <-chan struct{}) bool {
	bound := time.NewTimer(s.verdictWait())
	defer bound.Stop()
	for {
		f := s.watch.now()
		switch {
		case f.removed, f.died && (!s.created || f.exitCode != 0), s.created && f.stopKill:
			return true
		case f.died: // a new container whose agent ended by itself
			return false
		case f.broken:
			return s.engineSays(ctx)
		}
		select {
		case <-s.watch.changed:
		case <-bound.C:
			return s.engineSays(ctx)
		case <-closing:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// verdictWait bounds how long stoppedUnder waits for the container's
// events once the agent's stream ended: an existing container's exit is
// reported right after its init's (dieEventWait); a new container's
// agent closes what it started before it exits (its own bound, and an
// engine call).
func (s *agentSession) verdictWait() time.Duration {
	if s.created {
		return agentExitWait
	}
	return dieEventWait
}

// engineSays asks the engine for the container's state: gone, or no
// longer running (a new container: with a non-zero exit code or killed
// by the OOM killer), means stopped under the session; running, exited 0
// (a new container's agent ends by itself when its stdin ends), or no
// answer, means not.
func (s *agentSession) engineSays(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, engineAskWait)
	defer cancel()
	ins, err := s.b.cli.ContainerInspect(ctx, s.containerID, client.ContainerInspectOptions{})
	switch {
	case cerrdefs.IsNotFound(err):
		return true
	case err != nil || ins.Container.State == nil || ins.Container.State.Running:
		return false
	case !s.created:
		return true
	}
	return ins.Container.State.ExitCode != 0 || ins.Container.State.OOMKilled
}
