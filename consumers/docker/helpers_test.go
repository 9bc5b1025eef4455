package docker

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote/remotetest"
	"github.com/ptyseam/ptyseam/testharness"
)

// newBackend returns a backend on the package's dockerd, closed when t
// ends.
func newBackend(t testing.TB) (*Backend, *dockertest.Daemon) {
	t.Helper()
	d := dockertest.Shared(t)
	b, err := NewBackend(BackendOptions{Host: d.Host})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b, d
}

// childrenTarget is a new-container target from the test image with the
// children binary's directory mounted read-only at its host path.
func childrenTarget(t testing.TB, d *dockertest.Daemon) (*Target, string) {
	bin := testharness.BuildChildren(t)
	return &Target{Image: d.Image, Mounts: []Mount{{Source: filepath.Dir(bin), Target: filepath.Dir(bin), ReadOnly: true}}}, bin
}

// targetBackend puts a fixed target into every request.
type targetBackend struct {
	b *Backend
	t *Target
}

func (tb targetBackend) Type() string { return Type }

func (tb targetBackend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	req.Options = tb.t
	return tb.b.Spawn(ctx, req)
}

// runContainer starts a long-lived container for exec sessions, removed
// when t ends.
func runContainer(t testing.TB, d *dockertest.Daemon, mounts ...Mount) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, _ := newBackend(t)
	s, err := b.Spawn(ctx, core.BackendRequest{Command: []string{"sleep", "100000"}, Size: core.DefaultSize,
		Marker: "host-" + t.Name(), Options: &Target{Image: d.Image, Mounts: mounts}})
	if err != nil {
		t.Fatal(err)
	}
	go drain(s)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := s.Close(ctx); err != nil {
			t.Error(err)
		}
	})
	return s.(*session).containerID
}

// spawnDrained spawns req on b, reads its output away in the background
// and closes the session when the test ends (its cleanups registered
// later run first).
func spawnDrained(t testing.TB, ctx context.Context, b *Backend, req core.BackendRequest) *session {
	t.Helper()
	s, err := b.Spawn(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(context.WithoutCancel(ctx)); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	go drain(s)
	return s.(*session)
}

func drain(s core.BackendSession) {
	buf := make([]byte, 4096)
	for {
		if _, err := s.Read(buf); err != nil {
			return
		}
	}
}

// containerExists asks the engine whether id is known.
func containerExists(t testing.TB, cli *client.Client, id string) bool {
	t.Helper()
	_, err := cli.ContainerInspect(context.Background(), id, client.ContainerInspectOptions{})
	return err == nil
}

// serviceOn starts a backend on the engine at host (a daemon's socket, or
// an engine proxy's), with the agent inside sessions when agent is set,
// and the terminals service over it; both end with tb.
func serviceOn(tb testing.TB, host string, agent bool) *core.Service {
	tb.Helper()
	opts := BackendOptions{Host: host}
	if agent {
		opts.AgentBinary = remotetest.Binary(tb)
	}
	b, err := NewBackend(opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = b.Close() })
	return remotetest.NewService(tb, b)
}

// bashTarget is a bash session's target: in a new container from d's
// image, or, with exec, in a running container it starts (its id cid).
func bashTarget(tb testing.TB, d *dockertest.Daemon, exec bool) (tg *Target, cid string) {
	tb.Helper()
	if !exec {
		return &Target{Image: d.Image, Shell: []string{"/bin/bash"}}, ""
	}
	cid = runContainer(tb, d)
	return &Target{Container: cid, Shell: []string{"/bin/bash"}}, cid
}
