package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/client"
	dockerpkg "github.com/ptyseam/ptyseam/consumers/docker"
	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
)

func TestParseDockerTargets(t *testing.T) {
	good := `{"host": "unix:///run/d.sock", "targets": {"py": {"description": "a sandbox", "image": "img:1",
		"mounts": [{"source": "/srv", "target": "/work", "readOnly": true}], "workdir": "/work", "env": {"A": "b"},
		"user": "1000", "memoryMB": 512, "cpus": 0.5, "pids": 100}, "b": {"container": "c1", "shell": "/bin/sh"}}}`
	f, err := parseDockerTargets([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	py := f.Targets["py"].target()
	if py.Image != "img:1" || py.Memory != 512<<20 || py.NanoCPUs != 5e8 || py.PidsLimit != 100 || py.NetworkMode != "" ||
		len(py.Mounts) != 1 || !py.Mounts[0].ReadOnly || len(py.Shell) != 1 || py.Shell[0] != "/bin/bash" {
		t.Fatalf("py: %+v", py)
	}
	for _, bad := range []string{
		`{"targets": {}}`,
		`{"targets": {"x": {}}}`,
		`{"targets": {"x": {"image": "a", "container": "b"}}}`,
		`{"targets": {"x y": {"image": "a"}}}`,
		`{"targets": {"x": {"image": "a", "shell": "zsh"}}}`,
		`{"targets": {"x": {"image": "a", "memoryMB": -1}}}`,
		`{"targets": {"x": {"image": "a", "mounts": [{"source": "rel", "target": "/x"}]}}}`,
		`{"targets": {"x": {"container": "a", "pids": 3}}}`,
		`{"targets": {"x": {"image": "a", "env": {"1A": "b"}}}}`,
		`{"targets": {"x": {"image": "a", "unknown": 1}}}`,
		`{"targets": {"x": {"image": "a"}}} {}`,
	} {
		if _, err := parseDockerTargets([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

func FuzzParseDockerTargets(f *testing.F) {
	f.Add([]byte(`{"targets": {"box": {"image": "img:1", "mounts": [{"source": "/a", "target": "/b"}]}}}`))
	f.Add([]byte(`{"host": "unix:///x", "targets": {"a": {"container": "c", "env": {"K": "v"}}}}`))
	f.Add([]byte(`{"agentBinary": "self", "targets": {"a": {"image": "i"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tf, err := parseDockerTargets(data)
		if err != nil {
			return
		}
		if len(tf.Targets) == 0 || len(tf.Targets) > maxTargets {
			t.Fatalf("%d targets accepted", len(tf.Targets))
		}
		for name, dt := range tf.Targets {
			if !remoteNameRx.MatchString(name) || (dt.Image == "") == (dt.Container == "") {
				t.Fatalf("accepted %q: %+v", name, dt)
			}
			if err := dt.target().Validate(); err != nil {
				t.Fatalf("accepted %q, which the backend refuses: %v", name, err)
			}
		}
	})
}

// The server with --docker-targets offers the target to pty_open: a bash
// in a new container whose sends settle on the prompt; closing removes
// the container; another image is refused by the backend.
func TestDockerTargetServed(t *testing.T) {
	d := dockertest.StartTest(t)
	t.Run("relay", func(t *testing.T) { testDockerTargetServed(t, d, "") })
	t.Run("agent", func(t *testing.T) {
		agent := filepath.Join(t.TempDir(), "ptyseam")
		cmd := exec.Command("go", "build", "-o", agent, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		testDockerTargetServed(t, d, agent)
	})
}

func testDockerTargetServed(t *testing.T, d *dockertest.Daemon, agent string) {
	file := filepath.Join(t.TempDir(), "docker.json")
	conf := fmt.Sprintf(`{"host": %q, "agentBinary": %q, "targets": {"box": {"description": "test box", "image": %q, "memoryMB": 256, "pids": 64}}}`, d.Host, agent, d.Image)
	if err := os.WriteFile(file, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	ts, err := newToolServer(defaultConfig(t, "--docker-targets", file), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	defer func() {
		if err := ts.shutdown(ctx); err != nil {
			t.Error(err)
		}
	}()
	owner := core.NewOwner("test")
	// The open's deadline is a minute, not the 10 s default: starting a
	// container (and uploading the agent) on a loaded CI machine took
	// longer, and this test is about what the target serves, not how fast.
	op, err := ts.sessions.Open(ctx, owner, ptysession.OpenRequest{Command: "bash", Target: "box", Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	r, err := ts.sessions.Send(ctx, owner, op.SessionID, ptysession.SendRequest{Data: "cat /sys/fs/cgroup/pids/pids.max /sys/fs/cgroup/pids.max 2>/dev/null; true"})
	if err != nil || r.WaitReason != core.WaitPrompt || !strings.Contains(r.Delta, "64") {
		t.Fatalf("send: %+v %v", r, err)
	}
	if agent != "" {
		// The agent sees the terminal: a command waiting for input
		// settles on stdin_read.
		r, err := ts.sessions.Send(ctx, owner, op.SessionID, ptysession.SendRequest{Data: "read x"})
		if err != nil || r.WaitReason != core.WaitStdinRead {
			t.Fatalf("read: %+v %v", r, err)
		}
		if r, err = ts.sessions.Send(ctx, owner, op.SessionID, ptysession.SendRequest{Data: "answer"}); err != nil || r.WaitReason != core.WaitPrompt {
			t.Fatalf("answer: %+v %v", r, err)
		}
	}
	list, err := d.Client.ContainerList(ctx, client.ContainerListOptions{Filters: client.Filters{}.Add("label", dockerpkg.LabelSession)})
	if err != nil || len(list.Items) != 1 {
		t.Fatalf("containers while open: %+v %v", list, err)
	}
	if cr, err := ts.sessions.Close(ctx, owner, op.SessionID); err != nil || !cr.Closed {
		t.Fatalf("close: %+v %v", cr, err)
	}
	list, err = d.Client.ContainerList(ctx, client.ContainerListOptions{All: true, Filters: client.Filters{}.Add("label", dockerpkg.LabelSession)})
	if err != nil || len(list.Items) != 0 {
		t.Fatalf("containers after close: %+v %v", list, err)
	}
	_, err = ts.svc.Spawn(ctx, owner, core.SpawnRequest{Type: dockerpkg.Type, Options: &dockerpkg.Target{Image: "other:latest"}})
	if !errors.Is(err, dockerpkg.ErrImageNotAllowed) || !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("an image outside the file: %v", err)
	}
}
