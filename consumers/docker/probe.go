package docker

import (
	"context"
	"strings"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
)

// probeVerdict is what a probe of a container showed.
type probeVerdict int

const (
	// probeUnknown: the engine could not tell (it did not answer, or the
	// runtime refused the probe for a reason that does not say the
	// container ended: a full pids limit, a missing /bin/sh, a runtime
	// whose record of the container's death lags); only the engine's
	// report of the container's end can then say it ended.
	probeUnknown probeVerdict = iota
	// probeAlive: a process started in the container, so it runs.
	probeAlive
	// probeDead: the engine says the container is gone or not running.
	probeDead
)

// probe asks whether the session's container still runs, without waiting
// for the engine's report of its end (its wait call can answer seconds
// late, or its answer can be held up on the way): it starts
// `/bin/sh -c "exit 0"` in the container, detached, and sends the verdict
// on the returned channel. An exec the runtime refuses because the
// container's init has exited is dead (the engine itself records that end
// later: it learns of the exec's end first); so is one the engine refuses
// because the container is gone or not running, once the engine's state
// confirms it (a paused container refuses an exec too, and runs). One
// that starts is alive; anything else is unknown, so that a live
// container is never reported dead. The probe is bounded by
// engineAskWait and ends with s.ctx; the session's wait group counts it.
func (s *session) probe() <-chan probeVerdict {
	res := make(chan probeVerdict, 1)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		ctx, cancel := context.WithTimeout(s.ctx, engineAskWait)
		defer cancel()
		ex, err := s.b.cli.ExecCreate(ctx, s.containerID, client.ExecCreateOptions{User: "0", Cmd: []string{"/bin/sh", "-c", "exit 0"}})
		if err == nil {
			_, err = s.b.cli.ExecStart(ctx, ex.ID, client.ExecStartOptions{Detach: true})
			if err == nil {
				res <- probeAlive
				return
			}
		}
		if ctx.Err() == nil && (runtimeSaysStopped(err) || (cerrdefs.IsNotFound(err) || cerrdefs.IsConflict(err)) && s.stateEnded(ctx)) {
			res <- probeDead
			return
		}
		s.b.log.Info("docker probe exec could not tell whether the container runs", "container", s.containerID, "err", err)
		res <- probeUnknown
	}()
	return res
}

// stoppedRefusals are how the runtimes under the engine refuse an exec
// once the container's init has exited (or is a zombie): containerd's
// shim, whose init process is in its stopped state, and runc, which finds
// the init gone. The engine passes them on (as unknown errors) before it
// has recorded the container's end itself.
var stoppedRefusals = []string{
	"cannot exec in a stopped state",     // containerd's shim
	"cannot exec in a stopped container", // runc
}

// runtimeSaysStopped reports whether a refused exec start says that the
// runtime found the container's init ended. Another runtime's refusal is
// not recognized: the probe is then unknown.
func runtimeSaysStopped(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	for _, r := range stoppedRefusals {
		if strings.Contains(msg, r) {
			return true
		}
	}
	return false
}

// stateEnded reports whether the engine's state says that the session's
// container is gone or not running (neither running nor paused).
func (s *session) stateEnded(ctx context.Context) bool {
	ins, err := s.b.cli.ContainerInspect(ctx, s.containerID, client.ContainerInspectOptions{})
	if cerrdefs.IsNotFound(err) {
		return true
	}
	return err == nil && ins.Container.State != nil && !ins.Container.State.Running
}
