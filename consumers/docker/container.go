package docker

import (
	"context"
	"fmt"
	"strconv"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/events"
	"github.com/moby/moby/api/types/mount"
	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/core"
)

// spawnContainer creates a container for the session, attaches to its
// TTY, subscribes to its events (its exit among them), and starts it. On error it
// has removed the container.
func (b *Backend) spawnContainer(ctx context.Context, sp spawnParams) (core.BackendSession, error) {
	t := sp.t
	init := true
	hc := &container.HostConfig{
		NetworkMode:    container.NetworkMode(t.network()),
		Init:           &init,
		ReadonlyRootfs: t.ReadOnlyRootfs,
		Resources:      container.Resources{Memory: t.Memory, NanoCPUs: t.NanoCPUs},
		ConsoleSize:    [2]uint{uint(sp.Size.Rows), uint(sp.Size.Cols)},
	}
	if t.PidsLimit > 0 {
		hc.Resources.PidsLimit = &t.PidsLimit
	}
	for _, m := range t.Mounts {
		hc.Mounts = append(hc.Mounts, mount.Mount{Type: mount.TypeBind, Source: m.Source, Target: m.Target, ReadOnly: m.ReadOnly})
	}
	labels := map[string]string{}
	for k, v := range t.Labels {
		labels[k] = v
	}
	labels[LabelSession] = sp.Marker
	cfg := &container.Config{
		Image: t.Image, Cmd: sp.Command, Env: sp.Env, WorkingDir: sp.Dir, User: t.User,
		Tty: true, OpenStdin: true, AttachStdin: true, AttachStdout: true, AttachStderr: true,
		Labels: labels,
	}
	id, err := b.createContainer(ctx, client.ContainerCreateOptions{Config: cfg, HostConfig: hc}, sp.Marker)
	if id == "" {
		return nil, err
	}
	s := newSession(b, sp)
	s.containerID, s.created = id, true
	removed := func(cause error) (core.BackendSession, error) {
		if cerr := s.Close(context.WithoutCancel(ctx)); cerr != nil {
			return nil, &core.CleanupError{Cause: cause, Err: cerr}
		}
		return nil, cause
	}
	if err != nil {
		// Created after the caller gave up.
		return removed(err)
	}
	fail := func(what string, err error) (core.BackendSession, error) {
		cause := spawnErr(what, err)
		if ctx.Err() != nil {
			cause = &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: what, Err: ctx.Err()}
		}
		return removed(cause)
	}
	hj, err := b.cli.ContainerAttach(ctx, s.containerID, client.ContainerAttachOptions{Stream: true, Stdin: true, Stdout: true, Stderr: true})
	if err != nil {
		return fail("attaching to the container", err)
	}
	s.attach(hj.HijackedResponse)
	// One events stream per session reports both whose kill stopped the
	// container and its exit (the die event's exit code): no wait call.
	// Since: every event the engine still holds for the new container,
	// then the live ones (the engine writes the stream's headers before
	// it subscribes: the replay closes that gap).
	// The client returns once the engine sent the stream's headers: the
	// spawn's context bounds that wait (an engine that never answers
	// holds no spawn past its deadline), the session's the stream.
	evCtx, evCancel := context.WithCancel(s.ctx)
	bound := context.AfterFunc(ctx, evCancel)
	ev := b.cli.Events(evCtx, client.EventsListOptions{Since: "1", Filters: client.Filters{}.
		Add("type", string(events.ContainerEventType)).Add("container", s.containerID)})
	if !bound() {
		return fail("subscribing to the container's events", ctx.Err())
	}
	s.follow(func() { s.watchContainer(ev) })
	if _, err := b.cli.ContainerStart(ctx, s.containerID, client.ContainerStartOptions{}); err != nil {
		return fail("starting the container", err)
	}
	// Engines before API 1.42 ignore ConsoleSize: set the size now (a
	// program that reads it in its first instant may still see 0x0).
	if _, err := b.cli.ContainerResize(ctx, s.containerID, client.ContainerResizeOptions{Height: uint(sp.Size.Rows), Width: uint(sp.Size.Cols)}); err != nil && !s.isExited() && s.running(ctx) {
		return fail("sizing the container's terminal", err)
	}
	b.log.Debug("docker container started", "container", s.containerID, "image", t.Image)
	return s, nil
}

// watchContainer follows the container's events: it tells the session's
// own kills from everyone else's, and records the container's exit when
// the engine reports it (the die event, which follows the kill that
// caused it on the same stream).
func (s *session) watchContainer(ev client.EventsResult) {
	for {
		select {
		case m, ok := <-ev.Messages:
			if !ok {
				s.setExit(core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: "the engine stopped reporting the container"})
				return
			}
			switch m.Action {
			case events.ActionKill, events.ActionDestroy:
				switch {
				case m.Action == events.ActionKill && s.ownKill.Load() > 0:
					s.ownKill.Add(-1)
				case m.Action == events.ActionKill && !stopSignals[m.Actor.Attributes["signal"]]:
					// docker kill -s WINCH and the like stop nothing.
				case !s.isClosing():
					s.foreign.Store(true)
				}
			case events.ActionDie:
				s.setExit(s.dieStatus(m.Actor.Attributes["exitCode"]))
				return
			}
			if m.Action == events.ActionDestroy {
				// Removed without a die: it never ran (a failed
				// spawn's Close), or its die was not reported.
				st := core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: "the container was removed"}
				if !s.isClosing() {
					st.Reason = ReasonContainerStopped
				}
				s.setExit(st)
				return
			}
		case err := <-ev.Err:
			if s.ctx.Err() != nil {
				s.setExit(core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: "closed"})
				return
			}
			s.setExit(s.lostEventsStatus(err))
			return
		case <-s.ctx.Done():
			s.setExit(core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: "closed"})
			return
		}
	}
}

// stopSignals are the signal numbers (as the engine's kill event names
// them) with which someone else's kill counts as stopping the container:
// HUP, INT, QUIT, KILL, TERM.
var stopSignals = map[string]bool{"1": true, "2": true, "3": true, "9": true, "15": true}

// dieStatus is the exit status of a die event's exit code; a container
// that someone else stopped ends with ReasonContainerStopped.
func (s *session) dieStatus(code string) core.Status {
	n, err := strconv.Atoi(code)
	st := statusFromCode(n)
	if err != nil {
		st = core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: "the engine reported no exit code"}
	}
	if !s.isClosing() && s.foreign.Load() {
		st.Reason = ReasonContainerStopped
		s.b.log.Info("docker session ended: container stopped by someone else", "container", s.containerID)
	}
	return st
}

// engineAskWait bounds the engine call that asks, after a session's
// stream to the engine broke, whether its container still runs.
const engineAskWait = 10 * time.Second

// lostEventsStatus is the exit status of a session whose events stream
// broke (err) before the container's exit was reported: a container that
// is gone or has stopped was stopped under the session; one that still
// runs, or an engine that no longer answers, means the connection to the
// engine was lost (ReasonEngineLost), and the session ends, as its output
// stream did too.
func (s *session) lostEventsStatus(err error) core.Status {
	ctx, cancel := context.WithTimeout(s.ctx, engineAskWait)
	defer cancel()
	ins, ierr := s.b.cli.ContainerInspect(ctx, s.containerID, client.ContainerInspectOptions{})
	switch {
	case cerrdefs.IsNotFound(err) || cerrdefs.IsNotFound(ierr):
		return core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: ReasonContainerStopped}
	case ierr == nil && ins.Container.State != nil && !ins.Container.State.Running:
		return s.dieStatus(strconv.Itoa(ins.Container.State.ExitCode))
	}
	s.b.log.Info("docker session ended: the connection to the engine was lost", "container", s.containerID, "err", err)
	return core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: ReasonEngineLost}
}

// closeContainer removes the session's container (killing everything in
// it: its processes share one PID namespace that ends with its init) and
// checks that the engine no longer knows it.
func (s *session) closeContainer(ctx context.Context) error {
	s.ownKill.Add(1)
	err := removeAgain(ctx, func(ctx context.Context) error {
		_, err := s.b.cli.ContainerRemove(ctx, s.containerID, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
		return err
	})
	if err != nil && !cerrdefs.IsNotFound(err) {
		return fmt.Errorf("docker: removing container %s: %w", short(s.containerID), err)
	}
	_, err = s.b.cli.ContainerInspect(ctx, s.containerID, client.ContainerInspectOptions{})
	switch {
	case cerrdefs.IsNotFound(err):
		return nil
	case err == nil:
		return fmt.Errorf("docker: container %s still exists after its removal", short(s.containerID))
	default:
		return fmt.Errorf("docker: checking the removal of container %s: %w", short(s.containerID), err)
	}
}

// short is the 12-character form of an id, for messages.
func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// running asks the engine whether the container still runs: a program
// that exits at once ends its container before the sizing resize, whose
// refusal is then no spawn failure (the session reports the exit as its
// events arrive). An engine that cannot answer counts as running.
func (s *session) running(ctx context.Context) bool {
	ins, err := s.b.cli.ContainerInspect(ctx, s.containerID, client.ContainerInspectOptions{})
	if err != nil || ins.Container.State == nil {
		return true
	}
	return ins.Container.State.Running
}
