package docker

import (
	"context"
	"fmt"
	"time"

	cerrdefs "github.com/containerd/errdefs"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/mount"
	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// AgentPath is where the backend copies the agent in a container.
const AgentPath = "/.ptyseam/ptyseam"

// spawnAgent runs the session on a ptyseam agent inside the container: the
// agent binary is copied in through the engine's copy API and started as
// the container's program (a new container) or as an exec (an existing
// one), without a TTY; its stdin and stdout carry the remote protocol.
// The session is then the agent's local PTY session: it settles on the
// prompt marker and on stdin_read, signals the foreground group, and its
// Close ends the whole process tree in the container.
func (b *Backend) spawnAgent(ctx context.Context, sp spawnParams) (core.BackendSession, error) {
	t := sp.t
	as := &agentSession{b: b}
	fail := func(what string, err error) (core.BackendSession, error) {
		cause := spawnErr(what, err)
		if ctx.Err() != nil {
			cause = &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: what, Err: ctx.Err()}
		}
		if cerr := as.teardown(context.WithoutCancel(ctx)); cerr != nil {
			return nil, &core.CleanupError{Cause: cause, Err: cerr}
		}
		return nil, cause
	}
	var stream *Stream
	if t.Image != "" {
		if t.ReadOnlyRootfs && !b.opts.AgentMount {
			return nil, invalid("docker: a read-only root file system cannot receive a copy of the agent (set BackendOptions.AgentMount)")
		}
		init := true
		hc := &container.HostConfig{NetworkMode: container.NetworkMode(t.network()), Init: &init, ReadonlyRootfs: t.ReadOnlyRootfs,
			Resources: container.Resources{Memory: t.Memory, NanoCPUs: t.NanoCPUs}}
		if b.opts.AgentMount {
			hc.Mounts = append(hc.Mounts, mount.Mount{Type: mount.TypeBind, Source: b.opts.AgentBinary, Target: AgentPath, ReadOnly: true})
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
		id, err := b.createContainer(ctx, client.ContainerCreateOptions{HostConfig: hc, Config: &container.Config{
			Image: t.Image, Cmd: []string{AgentPath, "agent"}, User: t.User, WorkingDir: t.WorkingDir, Env: t.Env, Labels: labels,
			// StdinOnce: the engine closes the agent's stdin when the
			// attach connection ends (cut or closed), so the agent ends
			// everything it started at once instead of when the
			// protocol's keepalive finds the host gone.
			OpenStdin: true, StdinOnce: true, AttachStdin: true, AttachStdout: true, AttachStderr: true,
		}}, sp.Marker)
		if id == "" {
			return nil, err
		}
		as.containerID, as.created = id, true
		if err != nil {
			// Created after the caller gave up.
			if cerr := as.teardown(context.WithoutCancel(ctx)); cerr != nil {
				return nil, &core.CleanupError{Cause: err, Err: cerr}
			}
			return nil, err
		}
		// Every event of a container created for the session is the
		// session's: the watch replays all the engine still holds.
		as.watch = watchSince(ctx, b.cli, as.containerID, "1")
		if !b.opts.AgentMount {
			if err := b.CopyFile(ctx, as.containerID, b.opts.AgentBinary, AgentPath, 0o755); err != nil {
				return fail("copying the agent into the container", err)
			}
		}
		hj, err := b.cli.ContainerAttach(ctx, as.containerID, client.ContainerAttachOptions{Stream: true, Stdin: true, Stdout: true, Stderr: true})
		if err != nil {
			return fail("attaching to the container", err)
		}
		stream = newStream(hj.HijackedResponse)
		as.stream = stream
		if _, err := b.cli.ContainerStart(ctx, as.containerID, client.ContainerStartOptions{}); err != nil {
			return fail("starting the container", err)
		}
	} else {
		ins, err := b.cli.ContainerInspect(ctx, t.Container, client.ContainerInspectOptions{})
		if err != nil {
			return nil, spawnErr("inspecting container "+t.Container, err)
		}
		as.containerID = ins.Container.ID
		// The container's events from its current start on: a die of an
		// earlier run is not this session's.
		var since string
		if ins.Container.State != nil {
			since = sinceStart(ins.Container.State.StartedAt)
		}
		as.watch = watchSince(ctx, b.cli, as.containerID, since)
		if err := b.CopyFile(ctx, as.containerID, b.opts.AgentBinary, AgentPath, 0o755); err != nil {
			return fail("copying the agent into the container", err)
		}
		if stream, err = b.ExecStream(ctx, as.containerID, t.User, t.Env, []string{AgentPath, "agent"}); err != nil {
			return fail("starting the agent", err)
		}
		as.stream = stream
	}
	conn, err := remote.Connect(ctx, stream)
	if err != nil {
		if msg := stream.Stderr(); msg != "" {
			err = fmt.Errorf("%w (agent stderr: %s)", err, lastLine(msg))
		}
		return fail("connecting to the agent", err)
	}
	req := sp.BackendRequest
	typ := remote.AgentExec
	if sp.shell {
		// The agent's shell type: Target.Shell, or its own default (an
		// interactive bash), with the prompt marker.
		typ = remote.AgentShell
		if len(t.Shell) == 0 {
			req.Command = nil
		}
	}
	rs, err := conn.Spawn(ctx, typ, req)
	if err != nil {
		_ = conn.Close()
		return fail("starting the session on the agent", err)
	}
	as.Session = remote.NewSession(conn, rs, remote.SessionHooks{
		Teardown: as.teardown, Lost: as.lost, Ended: as.watch.stop, Gone: as.isStopped})
	return as, nil
}

// agentSession is a session on an agent in a container: the remote
// session, whose Close also ends the agent and removes a created
// container, and whose lost stream is explained by the container's
// events (agent_exit.go).
type agentSession struct {
	*remote.Session
	b           *Backend
	stream      *Stream
	containerID string
	created     bool
	watch       *containerWatch // the container's events, from before the agent started
}

// teardown ends the agent's stream and removes a created container, or
// waits for the agent's exec to end.
func (s *agentSession) teardown(ctx context.Context) error {
	if s.watch != nil {
		s.watch.stop()
	}
	if s.stream != nil {
		_ = s.stream.Close()
	}
	if !s.created {
		return s.waitAgentExec(ctx)
	}
	rs := &session{b: s.b, containerID: s.containerID}
	return rs.closeContainer(ctx)
}

// isStopped reports whether the session's container is no longer running.
func (s *agentSession) isStopped(ctx context.Context) bool {
	ins, err := s.b.cli.ContainerInspect(ctx, s.containerID, client.ContainerInspectOptions{})
	return err != nil || ins.Container.State == nil || !ins.Container.State.Running
}

// ContainerID returns the id of the container the session runs in.
func (s *agentSession) ContainerID() string { return s.containerID }

// agentExitWait bounds how long Close waits for the agent's exec to end:
// the agent's own bound on closing its sessions, and an engine call.
const agentExitWait = remote.DefaultAgentCloseTimeout + engineAskWait

// waitAgentExec waits, until ctx ends or agentExitWait passed, for the engine to report the
// agent's exec ended (its stdin ended with the stream: it closes what it
// started and exits), so that Close leaves no agent behind.
func (s *agentSession) waitAgentExec(ctx context.Context) error {
	if s.stream == nil || s.stream.execID == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, agentExitWait)
	defer cancel()
	for {
		ins, err := s.b.cli.ExecInspect(ctx, s.stream.execID, client.ExecInspectOptions{})
		switch {
		case cerrdefs.IsNotFound(err):
			return nil // the container is gone, and the exec with it
		case err != nil:
			return fmt.Errorf("docker: asking whether the agent's exec in %s ended: %w", short(s.containerID), err)
		case !ins.Running:
			return nil
		}
		t := time.NewTimer(execExitPoll)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("docker: the agent's exec in %s still runs: %w", short(s.containerID), ctx.Err())
		}
	}
}
