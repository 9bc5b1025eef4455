package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote/remotetest"
)

// A host marked ptyseamAgent in --remote-hosts runs its shells through
// the agent uploaded there (a real sshd on loopback): this binary as
// `ptyseam agent`, or the slim ptyseam-agent the file's agentBinary names.
// A Python REPL's 6*7 settles on stdin_read, which the plain ssh type can
// only reach by silence.
func TestRemoteHostThroughAgent(t *testing.T) {
	t.Run("self", func(t *testing.T) { testRemoteHostThroughAgent(t, "self") })
	t.Run("slim", func(t *testing.T) { testRemoteHostThroughAgent(t, remotetest.Binary(t)) })
}

func testRemoteHostThroughAgent(t *testing.T, agent string) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	bin := serverBinary(t)
	if err := os.Chmod(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	prev := agentBinary
	agentBinary = func() (string, error) { return bin, nil }
	t.Cleanup(func() { agentBinary = prev })

	tmp := t.TempDir()
	kh := filepath.Join(tmp, "known_hosts")
	if err := srv.WriteKnownHosts(kh); err != nil {
		t.Fatal(err)
	}
	pw := filepath.Join(tmp, "password")
	if err := os.WriteFile(pw, []byte(srv.Password+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hosts, _ := json.Marshal(map[string]any{"agentBinary": agent, "hosts": map[string]any{"box": map[string]any{
		"host": srv.Host, "port": srv.Port, "user": srv.User, "passwordFile": pw,
		"knownHostsFiles": []string{kh}, "ptyseamAgent": true,
	}}})
	hostsFile := filepath.Join(tmp, "hosts.json")
	if err := os.WriteFile(hostsFile, hosts, 0o600); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := core.New(core.Options{Logger: log})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t.Cleanup(func() {
		if err := svc.Shutdown(context.Background()); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	})
	targets, _, err := remoteTargets(config{RemoteHosts: hostsFile}, svc, log)
	if err != nil {
		t.Fatal(err)
	}
	tg := targets["box"]
	if tg.Backend != agentBackendType {
		t.Fatalf("target %+v", tg)
	}
	owner := core.NewOwner("test")
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: tg.Backend, Options: tg.Options})
	if err != nil {
		t.Fatalf("Spawn: %v", err)
	}
	for _, step := range []struct {
		line   string
		reason core.WaitReason
		want   string
	}{
		{"whoami", core.WaitPrompt, sshdtest.User},
		{"python3 -q", core.WaitStdinRead, ">>> "},
		{"6*7", core.WaitStdinRead, "42"},
		{"exit()", core.WaitPrompt, ""},
	} {
		op, err := svc.Send(ctx, owner, s.ID, core.SendRequest{Data: step.line, QuietWindow: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		res, err := op.Wait(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.WaitReason != step.reason || !strings.Contains(res.Delta, step.want) {
			t.Fatalf("%q settled as %s with %q, want %s with %q", step.line, res.WaitReason, res.Delta, step.reason, step.want)
		}
	}
	if _, err := svc.Close(ctx, owner, s.ID, "test"); err != nil {
		t.Fatal(err)
	}
}
