package docker

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/core"
)

// markerVar is the environment variable that marks every process of an
// exec session (inherited by its children, setsid escapees included), so
// that Close can find them in the container.
const markerVar = "PTYSEAM_DOCKER_SESSION"

// spawnExec starts the session as an exec with a TTY in the existing
// container. On error nothing was started.
func (b *Backend) spawnExec(ctx context.Context, sp spawnParams) (core.BackendSession, error) {
	t := sp.t
	ins, err := b.cli.ContainerInspect(ctx, t.Container, client.ContainerInspectOptions{})
	if err != nil {
		return nil, spawnErr("inspecting container "+t.Container, err)
	}
	if ins.Container.State == nil || !ins.Container.State.Running {
		return nil, spawnErr("container "+t.Container, fmt.Errorf("it is not running"))
	}
	if sp.Marker == "" {
		return nil, invalid("docker: an exec session needs the request's Marker")
	}
	ex, err := b.cli.ExecCreate(ctx, ins.Container.ID, client.ExecCreateOptions{
		User: t.User, TTY: true, AttachStdin: true, AttachStdout: true, AttachStderr: true,
		Env: append(append([]string{}, sp.Env...), markerVar+"="+sp.Marker), WorkingDir: sp.Dir, Cmd: sp.Command,
		ConsoleSize: client.ConsoleSize{Height: uint(sp.Size.Rows), Width: uint(sp.Size.Cols)},
	})
	if err != nil {
		return nil, spawnErr("creating an exec in container "+t.Container, err)
	}
	s := newSession(b, sp)
	s.containerID, s.execID = ins.Container.ID, ex.ID
	// The container's end, to tell it from the program's own end.
	// The client returns once the engine sent the answer's headers: the
	// spawn's context bounds that wait, the session's the answer.
	wctx, wcancel := context.WithCancel(s.ctx)
	bound := context.AfterFunc(ctx, wcancel)
	cwait := b.cli.ContainerWait(wctx, s.containerID, client.ContainerWaitOptions{Condition: container.WaitConditionNextExit})
	if !bound() {
		s.cancel()
		return nil, &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: "waiting for container " + t.Container, Err: ctx.Err()}
	}
	hj, err := b.cli.ExecAttach(ctx, ex.ID, client.ExecAttachOptions{TTY: true,
		ConsoleSize: client.ConsoleSize{Height: uint(sp.Size.Rows), Width: uint(sp.Size.Cols)}})
	if err != nil {
		s.cancel()
		// The exec may have started, or start later: spend it, then end
		// whatever carries the marker.
		if cerr := s.spendExec(context.WithoutCancel(ctx)); cerr != nil {
			return nil, &core.CleanupError{Cause: spawnErr("starting the exec", err), Err: cerr}
		}
		return nil, spawnErr("starting the exec in container "+t.Container, err)
	}
	s.attach(hj.HijackedResponse)
	s.follow(func() { s.watchExec(cwait) })
	// Engines before API 1.42 ignore ConsoleSize: set the size now.
	_, _ = b.cli.ExecResize(ctx, ex.ID, client.ExecResizeOptions{Height: uint(sp.Size.Rows), Width: uint(sp.Size.Cols)})
	return s, nil
}

// execExitPoll is how often watchExec asks for the exec's exit code once
// its stream ended (the engine has no event for it in API 1.41), and
// execExitWait how long it asks.
const (
	execExitPoll = 10 * time.Millisecond
	execExitWait = 10 * time.Second
)

// dieEventWait bounds how long an agent's exec session, whose stream
// ended while its container's events go on, waits for the container's
// die event (agent_exit.go).
const dieEventWait = 2 * time.Second

// watchExec records the exec's exit once its stream ended: the exit code
// from the engine, and whether the container stopped under it. When a
// container's init ends, the kernel kills every other process in it, so
// an exec that died of SIGKILL waits for the container's exit report (the
// wait call's answer) or a probe of the container (probe): one that shows
// the container runs on means the exec alone was killed, one that shows
// it ended means it stopped (the wait call's answer can lag by seconds on
// a loaded engine), and when the probe cannot tell, the report is awaited
// up to engineAskWait. A stream that ended while the exec and its
// container run on means the connection to the engine was lost
// (ReasonEngineLost): the container's wait call broke too, or the engine
// reports the exec running for execExitWait.
func (s *session) watchExec(cwait client.ContainerWaitResult) {
	waited := false // the wait call answered (its channels are then spent)
	defer func() {
		if !waited {
			// The client's wait call blocks on an unbuffered send until
			// its answer is taken: take it when it comes (at the latest
			// when Close cancels s.ctx).
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				select {
				case <-cwait.Result:
				case <-cwait.Error:
				}
			}()
		}
	}()
	select {
	case <-s.streamDone:
	case <-s.ctx.Done():
		s.setExit(core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: "closed"})
		return
	}
	// stopped: the container's end was reported.
	stopped := false
	takeWait := func(err error, ok bool) {
		waited = true
		stopped = ok || s.containerGone(err)
	}
	st := core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: ReasonEngineLost}
	deadline := time.Now().Add(execExitWait)
poll:
	for time.Now().Before(deadline) {
		if waited && !stopped {
			// The container ran on when its wait call broke: the
			// exec's stream was cut. The verdict rests on that answer;
			// asking about the exec again would take whatever befell
			// the container since (a removal's SIGKILL) for the cause.
			break
		}
		ins, err := s.b.cli.ExecInspect(s.ctx, s.execID, client.ExecInspectOptions{})
		if err != nil {
			st.Reason = "the engine did not report the exit code: " + err.Error()
			break
		}
		if !ins.Running {
			st = statusFromCode(ins.ExitCode)
			break
		}
		t := time.NewTimer(execExitPoll)
		select {
		case <-t.C:
		case <-s.ctx.Done():
		case <-waitResult(cwait, waited):
			takeWait(nil, true)
		case err := <-waitError(cwait, waited):
			takeWait(err, false)
		}
		t.Stop()
		if s.ctx.Err() != nil {
			break poll
		}
	}
	if s.ctx.Err() != nil {
		s.setExit(core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: "closed"})
		return
	}
	if !s.isClosing() && !waited {
		select {
		case <-cwait.Result:
			takeWait(nil, true)
		case err := <-cwait.Error:
			takeWait(err, false)
		case <-s.ctx.Done():
		default: // only a report already there counts, unless SIGKILL
			if st.Signal == "SIGKILL" {
				s.awaitEnd(cwait, takeWait, &stopped)
			}
		}
	}
	if !s.isClosing() {
		switch {
		case stopped:
			st.Reason = ReasonContainerStopped
			s.b.log.Info("docker exec session ended: its container stopped", "container", s.containerID)
		case st.Reason == ReasonEngineLost:
			s.b.log.Info("docker exec session ended: the connection to the engine was lost", "container", s.containerID)
		}
	}
	s.setExit(st)
}

// waitResult and waitError are the wait call's channels, nil once spent.
func waitResult(w client.ContainerWaitResult, spent bool) <-chan container.WaitResponse {
	if spent {
		return nil
	}
	return w.Result
}

func waitError(w client.ContainerWaitResult, spent bool) <-chan error {
	if spent {
		return nil
	}
	return w.Error
}

// statePollPace is how often awaitEnd asks for the container's state.
const statePollPace = 100 * time.Millisecond

// awaitEnd waits, for an exec that died of SIGKILL, until the wait call
// answers (takeWait) or a probe of the container shows whether it runs;
// when the probe cannot tell, the answer is awaited up to engineAskWait.
// Meanwhile it asks for the container's state every statePollPace: the
// runtime's refusal of the probe comes in words that change (a loaded
// run saw words the probe did not know), and the wait call's answer can
// lag by seconds, but the engine's state says "not running" as soon as
// the engine has recorded the end. It sets *stopped when the probe or the
// state shows the container ended.
func (s *session) awaitEnd(cwait client.ContainerWaitResult, takeWait func(error, bool), stopped *bool) {
	probe := s.probe()
	var bound <-chan time.Time // set once the probe could not tell
	poll := time.NewTicker(statePollPace)
	defer poll.Stop()
	for {
		select {
		case <-poll.C:
			ctx, cancel := context.WithTimeout(s.ctx, engineAskWait)
			ended := s.stateEnded(ctx)
			cancel()
			if ended {
				*stopped = true
				return
			}
		case <-cwait.Result:
			takeWait(nil, true)
			return
		case err := <-cwait.Error:
			takeWait(err, false)
			return
		case v := <-probe:
			switch v {
			case probeAlive:
				return
			case probeDead:
				*stopped = true
				return
			}
			probe = nil
			t := time.NewTimer(engineAskWait)
			defer t.Stop()
			bound = t.C
		case <-bound:
			return
		case <-s.ctx.Done():
			return
		}
	}
}

// containerGone reports whether a failed wait call (err) means that the
// container has gone or stopped, rather than that the connection to the
// engine broke: it asks the engine again on a new connection.
func (s *session) containerGone(err error) bool {
	if cerrdefs.IsNotFound(err) {
		return true
	}
	ctx, cancel := context.WithTimeout(s.ctx, engineAskWait)
	defer cancel()
	return s.stateEnded(ctx)
}

// spendWait bounds how long a failed spawn waits for the engine to have
// started its exec (spendExec).
const spendWait = 30 * time.Second

// spendExec ends an exec whose start the spawn gave up, so that nothing
// can start it later, and then sweeps the session's processes. dockerd
// answers an exec start before it starts the process, with a context of
// its own, and a start request on its way may reach it after the spawn
// returned: a sweep at once could find nothing and leave a process
// started after it. An exec starts at most once, so spendExec starts it
// itself (detached; the engine refuses the start of an exec that is
// starting, runs or ran), waits until the engine has started its
// process (or it ended), and sweeps.
func (s *session) spendExec(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, spendWait)
	defer cancel()
	if _, err := s.b.cli.ExecStart(ctx, s.execID, client.ExecStartOptions{Detach: true, TTY: true}); err != nil && !cerrdefs.IsConflict(err) {
		return fmt.Errorf("docker: starting the given-up exec in container %s to end it: %w", s.t.Container, err)
	}
	for {
		ins, err := s.b.cli.ExecInspect(ctx, s.execID, client.ExecInspectOptions{})
		if cerrdefs.IsNotFound(err) {
			break // its container is gone, with its processes
		}
		if err != nil {
			return fmt.Errorf("docker: inspecting the given-up exec in container %s: %w", s.t.Container, err)
		}
		if ins.PID != 0 || !ins.Running {
			break // started (or failed to): nothing can start it again
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("docker: the engine never started the given-up exec in container %s: %w", s.t.Container, ctx.Err())
		case <-time.After(execExitPoll):
		}
	}
	return s.sweep(ctx, "KILL")
}

// sweepScript signals every process of the container whose environment
// holds $1 (the session's marker variable) with signal $2, and for KILL
// repeats until none is left. It needs a POSIX sh and cat. It prints
// "clean" when none is left, "left N" otherwise.
const sweepScript = `m=$1; sig=$2; self=$$; r=0
while [ $r -lt 200 ]; do
  n=0
  for d in /proc/[0-9]*; do
    p=${d#/proc/}
    [ "$p" = "$self" ] && continue
    case "$(cat "$d/environ" 2>/dev/null)" in
      *"$m"*) kill -s "$sig" "$p" 2>/dev/null; n=$((n+1));;
    esac
  done
  if [ "$sig" != KILL ] || [ $n = 0 ]; then echo "clean $n"; exit 0; fi
  r=$((r+1))
done
echo "left $n"; exit 1`

// sweep runs sweepScript in the container. For KILL it returns nil only
// when no process of the session is left.
func (s *session) sweep(ctx context.Context, sig string) error {
	ins, err := s.b.cli.ContainerInspect(ctx, s.t.Container, client.ContainerInspectOptions{})
	if err != nil || ins.Container.State == nil || !ins.Container.State.Running {
		// A stopped container holds no process.
		if err == nil || strings.Contains(err.Error(), "No such container") {
			return nil
		}
		return fmt.Errorf("docker: inspecting container %s: %w", s.t.Container, err)
	}
	ex, err := s.b.cli.ExecCreate(ctx, ins.Container.ID, client.ExecCreateOptions{
		User: "0", AttachStdout: true, AttachStderr: true,
		Cmd: []string{"/bin/sh", "-c", sweepScript, "sweep", markerVar + "=" + s.marker, sig},
	})
	if err != nil {
		return fmt.Errorf("docker: creating the sweep exec in container %s: %w", s.t.Container, err)
	}
	hj, err := s.b.cli.ExecAttach(ctx, ex.ID, client.ExecAttachOptions{})
	if err != nil {
		return fmt.Errorf("docker: starting the sweep in container %s: %w", s.t.Container, err)
	}
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { _, err := io.Copy(&out, io.LimitReader(hj.Reader, 1<<16)); done <- err }()
	select {
	case <-done:
	case <-ctx.Done():
		hj.Close()
		<-done
		return fmt.Errorf("docker: the sweep in container %s did not finish: %w", s.t.Container, ctx.Err())
	}
	hj.Close()
	text := out.String()
	if !strings.Contains(text, "clean ") {
		return fmt.Errorf("docker: the sweep in container %s could not prove that the session's processes are gone (it needs /bin/sh and cat): %q", s.t.Container, lastLine(text))
	}
	return nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}
