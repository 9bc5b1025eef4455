package docker

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/core"
)

// runOnce runs argv in a new container from tg and returns its output and
// status.
func runOnce(t *testing.T, b *Backend, tg *Target, argv ...string) (string, core.Status) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := b.Spawn(ctx, core.BackendRequest{Command: argv, Size: core.DefaultSize, Marker: "opts-" + t.Name(), Options: tg})
	if err != nil {
		t.Fatal(err)
	}
	out := &lockedBuf{}
	done := make(chan struct{})
	go func() { out.readAll(s); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatalf("no end of output: %q", out.b.String())
	}
	st := s.ExitStatus()
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	return out.b.String(), st
}

// A new container gets what the target says: no network but loopback by
// default, read-only mounts, working directory, environment, user and
// resource limits.
func TestContainerOptions(t *testing.T) {
	b, d := newBackend(t)
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "note"), []byte("from the host"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(src, 0o755); err != nil {
		t.Fatal(err)
	}
	tg := &Target{Image: d.Image, Mounts: []Mount{{Source: src, Target: "/data", ReadOnly: true}},
		WorkingDir: "/data", Env: []string{"GREETING=hi there"}, User: "65534:65534",
		Memory: 64 << 20, PidsLimit: 50}
	script := `ls /sys/class/net | tr '\n' ' '; echo; cat note; echo; pwd; echo "$GREETING"; id -u; ` +
		`(echo x > /data/w) 2>/dev/null && echo writable || echo read-only; ` +
		`cat /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/memory.max 2>/dev/null; ` +
		`cat /sys/fs/cgroup/pids/pids.max /sys/fs/cgroup/pids.max 2>/dev/null; exit 3`
	out, st := runOnce(t, b, tg, "/bin/sh", "-c", script)
	lines := strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n")
	want := []string{"lo ", "from the host", "/data", "hi there", "65534", "read-only", "67108864", "50"}
	if len(lines) < len(want) {
		t.Fatalf("output %q", out)
	}
	for i, w := range want {
		if strings.TrimSpace(lines[i]) != strings.TrimSpace(w) {
			t.Errorf("line %d = %q, want %q (output %q)", i, lines[i], w, out)
		}
	}
	if st != core.ExitedWithCode(3) {
		t.Errorf("status %v", st)
	}
}

// Targets are checked before the engine is asked, and the allowlists
// hold.
func TestTargetRefusals(t *testing.T) {
	b, err := NewBackend(BackendOptions{Host: "unix:///nonexistent/docker.sock", AllowedImages: []string{"ok:1"}, AllowedContainers: []string{"c1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	for _, tc := range []struct {
		opts any
		want error
	}{
		{nil, core.ErrInvalidArgument},
		{&Target{}, core.ErrInvalidArgument},
		{&Target{Image: "ok:1", Container: "c1"}, core.ErrInvalidArgument},
		{&Target{Container: "c1", Memory: 1}, core.ErrInvalidArgument},
		{&Target{Image: "ok:1", Mounts: []Mount{{Source: "rel", Target: "/x"}}}, core.ErrInvalidArgument},
		{&Target{Image: "other:1"}, ErrImageNotAllowed},
		{&Target{Container: "c2"}, ErrImageNotAllowed},
		{&Target{Image: "ok:1"}, ErrEngine},
	} {
		_, err := b.Spawn(ctx, core.BackendRequest{Size: core.DefaultSize, Marker: "m", Options: tc.opts})
		if !errors.Is(err, tc.want) {
			t.Errorf("%+v: %v, want %v", tc.opts, err, tc.want)
		}
	}
}

// Someone else's harmless kill (SIGWINCH) does not make the session's
// ordinary exit a stopped container.
func TestForeignHarmlessKill(t *testing.T) {
	b, d := newBackend(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	before := sessionContainers(t, d.Client)
	s, err := b.Spawn(ctx, core.BackendRequest{Size: core.DefaultSize, Marker: "winch", Options: &Target{Image: d.Image, Shell: []string{"/bin/bash", "--norc"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close(ctx) }()
	out := &lockedBuf{}
	go out.readAll(s)
	if _, err := s.Write(ctx, []byte("echo ready-$((6*7))\r")); err != nil {
		t.Fatal(err)
	}
	if err := out.waitFor(ctx, "ready-42"); err != nil {
		t.Fatal(err)
	}
	id := newContainer(t, before, sessionContainers(t, d.Client))
	if _, err := d.Client.ContainerKill(ctx, id, client.ContainerKillOptions{Signal: "WINCH"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write(ctx, []byte("exit 4\r")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.Exited():
	case <-ctx.Done():
		t.Fatal("no exit")
	}
	if st := s.ExitStatus(); st != core.ExitedWithCode(4) {
		t.Fatalf("status %+v, want exited 4 without a reason", st)
	}
}

// A program that exits at once ends its container before the backend's
// sizing resize (engines before API 1.42 ignore the size given at create):
// the spawn succeeds and reports the exit, instead of failing because the
// engine refused to size a container that no longer runs.
func TestProgramExitingAtOnceIsNoSpawnFailure(t *testing.T) {
	b, d := newBackend(t)
	for i := range 8 {
		out, st := runOnce(t, b, &Target{Image: d.Image}, "/bin/sh", "-c", "exit 5")
		if st != core.ExitedWithCode(5) {
			t.Fatalf("run %d: status %v, output %q", i, st, out)
		}
	}
}
