package docker

import (
	"context"
	"fmt"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/events"
	"github.com/moby/moby/api/types/mount"
	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/core"
)

// spawnContainer creates a container for the session, attaches to its
// TTY, subscribes to its exit and its events, and starts it. On error it
// has removed the container.
func (b *Backend) spawnContainer(ctx context.Context, sp spawnParams) (core.BackendSession, error) {
	t := sp.t
	init := true
	hc := &container.HostConfig{
		NetworkMode:    container.NetworkMode(t.network()),
		Init:           &init,
		ReadonlyRootfs: t.ReadOnlyRootfs,
		Resources:      container.Resources{Memory: t.Memory, NanoCPUs: t.NanoCPUs},
		ConsoleSize:    [2]uint{uint(sp.size.Rows), uint(sp.size.Cols)},
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
	labels[LabelSession] = sp.marker
	cfg := &container.Config{
		Image: t.Image, Cmd: sp.argv, Env: sp.env, WorkingDir: sp.dir, User: t.User,
		Tty: true, OpenStdin: true, AttachStdin: true, AttachStdout: true, AttachStderr: true,
		Labels: labels,
	}
	created, err := b.cli.ContainerCreate(ctx, client.ContainerCreateOptions{Config: cfg, HostConfig: hc})
	if err != nil {
		return nil, spawnErr("creating a container from "+t.Image, err)
	}
	s := newSession(b, sp)
	s.containerID, s.created = created.ID, true
	fail := func(what string, err error) (core.BackendSession, error) {
		cause := spawnErr(what, err)
		if ctx.Err() != nil {
			cause = &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: what, Err: ctx.Err()}
		}
		if cerr := s.Close(context.WithoutCancel(ctx)); cerr != nil {
			return nil, &core.CleanupError{Cause: cause, Err: cerr}
		}
		return nil, cause
	}
	hj, err := b.cli.ContainerAttach(ctx, s.containerID, client.ContainerAttachOptions{Stream: true, Stdin: true, Stdout: true, Stderr: true})
	if err != nil {
		return fail("attaching to the container", err)
	}
	s.attach(hj.HijackedResponse)
	wait := b.cli.ContainerWait(s.ctx, s.containerID, client.ContainerWaitOptions{Condition: container.WaitConditionNextExit})
	ev := b.cli.Events(s.ctx, client.EventsListOptions{Filters: client.Filters{}.
		Add("type", string(events.ContainerEventType)).Add("container", s.containerID)})
	died := make(chan struct{})
	s.wg.Add(2)
	go s.watchEvents(ev, died)
	go s.watchContainer(wait, died)
	if _, err := b.cli.ContainerStart(ctx, s.containerID, client.ContainerStartOptions{}); err != nil {
		return fail("starting the container", err)
	}
	// Engines before API 1.42 ignore ConsoleSize: set the size now (a
	// program that reads it in its first instant may still see 0x0).
	if _, err := b.cli.ContainerResize(ctx, s.containerID, client.ContainerResizeOptions{Height: uint(sp.size.Rows), Width: uint(sp.size.Cols)}); err != nil && !s.isExited() && s.running(ctx) {
		return fail("sizing the container's terminal", err)
	}
	b.log.Debug("docker container started", "container", s.containerID, "image", t.Image)
	return s, nil
}

// watchEvents tells the session's own kills from everyone else's, and
// closes died when the engine reports the container's exit.
func (s *session) watchEvents(ev client.EventsResult, died chan struct{}) {
	defer s.wg.Done()
	dieOnce := false
	for {
		select {
		case m, ok := <-ev.Messages:
			if !ok {
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
				if !dieOnce {
					dieOnce = true
					close(died)
				}
			}
		case <-ev.Err:
			return
		case <-s.ctx.Done():
			return
		}
	}
}

// stopSignals are the signal numbers (as the engine's kill event names
// them) with which someone else's kill counts as stopping the container:
// HUP, INT, QUIT, KILL, TERM.
var stopSignals = map[string]bool{"1": true, "2": true, "3": true, "9": true, "15": true}

// dieEventWait bounds how long the exit report waits for the engine's
// "die" event, which says whether someone else killed the container.
const dieEventWait = 2 * time.Second

// watchContainer records the container's exit.
func (s *session) watchContainer(wait client.ContainerWaitResult, died <-chan struct{}) {
	defer s.wg.Done()
	var st core.Status
	select {
	case r := <-wait.Result:
		st = statusFromCode(int(r.StatusCode))
		if r.Error != nil && r.Error.Message != "" {
			st.Reason = r.Error.Message
		}
	case err := <-wait.Error:
		st = core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: "the engine stopped reporting the container: " + err.Error()}
		if cerrdefs.IsNotFound(err) {
			st.Reason = ReasonContainerStopped
		}
	case <-s.ctx.Done():
		st = core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: "closed"}
	}
	if !s.isClosing() {
		t := time.NewTimer(dieEventWait)
		select {
		case <-died:
		case <-t.C:
		case <-s.ctx.Done():
		}
		t.Stop()
		if s.foreign.Load() {
			st.Reason = ReasonContainerStopped
			s.b.log.Info("docker session ended: container stopped by someone else", "container", s.containerID)
		}
	}
	s.setExit(st)
}

// closeContainer removes the session's container (killing everything in
// it: its processes share one PID namespace that ends with its init) and
// checks that the engine no longer knows it.
func (s *session) closeContainer(ctx context.Context) error {
	s.ownKill.Add(1)
	_, err := s.b.cli.ContainerRemove(ctx, s.containerID, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
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
