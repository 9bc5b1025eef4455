package docker

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
	"github.com/ptyseam/ptyseam/remote/remotetest"
	"github.com/ptyseam/ptyseam/testharness"
)

// newAgentBackend returns a backend that runs every session on an agent
// in its container.
func newAgentBackend(t testing.TB) (*Backend, *dockertest.Daemon) {
	return newAgentBackendOpts(t, false)
}

// newAgentBackendOpts is newAgentBackend, with the agent bind-mounted
// instead of copied when mount is set.
func newAgentBackendOpts(t testing.TB, mount bool) (*Backend, *dockertest.Daemon) {
	t.Helper()
	_, d := newBackend(t)
	b, err := NewBackend(BackendOptions{Host: d.Host, AgentBinary: remotetest.Binary(t), AgentMount: mount})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b, d
}

// TestAgentConformance runs the backend suite with the agent inside each
// new container.
func TestAgentConformance(t *testing.T) {
	t.Parallel()
	b, d := newAgentBackend(t)
	tg, bin := childrenTarget(t, d)
	testharness.TestBackend(t, testharness.BackendHarness{
		Children: bin,
		New:      func(t *testing.T) core.Backend { return targetBackend{b: b, t: tg} },
	})
}

// TestAgentConformanceExec runs the backend suite with each session on an
// agent started in one running container.
func TestAgentConformanceExec(t *testing.T) {
	t.Parallel()
	b, d := newAgentBackend(t)
	bin := testharness.BuildChildren(t)
	id := runContainer(t, d, Mount{Source: filepath.Dir(bin), Target: filepath.Dir(bin), ReadOnly: true})
	testharness.TestBackend(t, testharness.BackendHarness{
		Children: bin,
		New:      func(t *testing.T) core.Backend { return targetBackend{b: b, t: &Target{Container: id}} },
	})
}

// With the agent inside, a container shell settles `true` on its prompt
// and `read` on stdin_read, as a local shell does; Close removes the
// container.
func TestAgentSettles(t *testing.T) {
	for _, mount := range []bool{false, true} {
		t.Run(map[bool]string{false: "copied", true: "mounted"}[mount], func(t *testing.T) { testAgentSettles(t, mount) })
	}
}

func testAgentSettles(t *testing.T, mount bool) {
	b, d := newAgentBackendOpts(t, mount)
	svc := core.New(core.Options{})
	if _, err := svc.Register(b); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	defer func() { _ = svc.Shutdown(ctx) }()
	owner := core.NewOwner("test")
	before := len(sessionContainers(t, d.Client))
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: Type, Options: &Target{Image: d.Image, ReadOnlyRootfs: mount}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		line string
		want core.WaitReason
	}{{"true", core.WaitPrompt}, {"read x", core.WaitStdinRead}, {"hello", core.WaitPrompt}} {
		start := time.Now()
		op, err := svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: tc.line})
		if err != nil {
			t.Fatal(err)
		}
		res, err := op.Wait(ctx)
		if err != nil || res.WaitReason != tc.want {
			t.Fatalf("%q settled as %+v, %v; want %s", tc.line, res, err, tc.want)
		}
		t.Logf("%q settled on %s in %v", tc.line, res.WaitReason, time.Since(start))
	}
	if _, err := svc.Close(ctx, owner, sp.ID, "done"); err != nil {
		t.Fatal(err)
	}
	if got := len(sessionContainers(t, d.Client)); got != before {
		t.Fatalf("%d session containers after Close, want %d", got, before)
	}
}

// With the agent in an existing container, Close ends the session's whole
// tree there (a setsid double fork ignoring TERM and HUP included), and a
// container killed mid-send ends the send and the session with an error
// matching both remote.ErrConnectionLost and ErrContainerStopped.
func TestAgentExecCloseAndKill(t *testing.T) {
	b, d := newAgentBackend(t)
	svc := core.New(core.Options{})
	if _, err := svc.Register(b); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	defer func() { _ = svc.Shutdown(ctx) }()
	owner := core.NewOwner("test")
	cid := runContainer(t, d)
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: Type, Options: &Target{Container: cid}})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"sleep 301 &",
		`setsid bash -c 'trap "" TERM HUP; (trap "" TERM HUP; exec sleep 302) & exit 0'`,
	} {
		op, err := svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: line})
		if err != nil {
			t.Fatal(err)
		}
		if res, err := op.Wait(ctx); err != nil || res.WaitReason != core.WaitPrompt {
			t.Fatalf("%s: %+v %v", line, res, err)
		}
	}
	for _, want := range []string{"sleep 301", "sleep 302"} {
		for procs := top(t, d.Client, cid); !strings.Contains(procs, want); procs = top(t, d.Client, cid) {
			if ctx.Err() != nil {
				t.Fatalf("%q is not running before Close:\n%s", want, procs)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if _, err := svc.Close(ctx, owner, sp.ID, "done"); err != nil {
		t.Fatal(err)
	}
	procs := top(t, d.Client, cid)
	for _, gone := range []string{"sleep 301", "sleep 302", "bash", "ptyseam"} {
		if strings.Contains(procs, gone) {
			t.Fatalf("%q survived Close:\n%s", gone, procs)
		}
	}

	sp, err = svc.Spawn(ctx, owner, core.SpawnRequest{Type: Type, Options: &Target{Container: cid}})
	if err != nil {
		t.Fatal(err)
	}
	op, err := svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: "sleep 1000"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Client.ContainerKill(ctx, cid, client.ContainerKillOptions{Signal: "KILL"}); err != nil {
		t.Fatal(err)
	}
	res, err := op.Wait(ctx)
	if err != nil || res.WaitReason != core.WaitSessionExit || res.Status.Reason != ReasonContainerStopped {
		t.Fatalf("send after the kill: %+v %v; want session_exit, exited (%s)", res, err, ReasonContainerStopped)
	}
	_, err = svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: "true"})
	if !errors.Is(err, ErrContainerStopped) || !errors.Is(err, remote.ErrConnectionLost) || !errors.Is(err, core.ErrSessionExited) {
		t.Fatalf("send after the kill: %v", err)
	}
	if _, err := svc.Close(ctx, owner, sp.ID, "done"); err != nil {
		t.Fatal(err)
	}
}
