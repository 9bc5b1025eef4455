package main

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSandboxedShell: with --sandbox, the shell of pty_open and all it
// starts cannot write outside --sandbox-rw and its own /tmp, and has no
// network.
func TestSandboxedShell(t *testing.T) {
	allowed, outside := t.TempDir(), t.TempDir()
	cs, _ := connect(t, defaultConfig(t, "--tools", "full", "--sandbox", "--sandbox-rw", allowed, "--sandbox-memory-mb", "0", "--sandbox-pids", "0"))
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	jobTools := 0
	for _, tool := range list.Tools {
		if strings.HasPrefix(tool.Name, "bg_") {
			jobTools++
		}
	}
	if jobTools != 7 {
		t.Errorf("%d bg_* tools served under a sandbox, want 7 (jobs run confined on terminals)", jobTools)
	}
	opened, res := call(t, cs, "pty_open", map[string]any{"command": "bash"})
	if res.IsError {
		t.Fatal(resultText(res))
	}
	id := opened["sessionId"]
	send := func(line string) string {
		t.Helper()
		m, res := call(t, cs, "pty_send", map[string]any{"id": id, "data": line})
		if res.IsError {
			t.Fatal(resultText(res))
		}
		return m["delta"].(string)
	}
	// outside is under /tmp, which the session's own /tmp hides.
	if out := send("echo no > " + outside + "/f; echo rc=$?"); !strings.Contains(out, "rc=") || strings.Contains(out, "rc=0") {
		t.Errorf("a write outside --sandbox-rw: %q", out)
	}
	if out := send("echo yes > " + allowed + "/f; echo rc=$?"); !strings.Contains(out, "rc=0") {
		t.Errorf("a write inside --sandbox-rw: %q", out)
	}
	out := send(`f=$(mktemp) && echo ok > "$f" && echo "made $f"`)
	if _, tmp, ok := strings.Cut(out, "\nmade "); !ok || !strings.HasPrefix(tmp, "/tmp/") {
		t.Errorf("mktemp in the session's own /tmp: %q", out)
	} else if tmp = strings.Fields(tmp)[0]; fileExists(tmp) {
		t.Errorf("the session's temporary file %s is on the host's /tmp", tmp)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	// The session's own loopback is up and holds no listener on port: the
	// host's listener, which would complete the connection, is not there.
	if out := send("(exec 3<>/dev/tcp/127.0.0.1/" + port + ") 2>&1; echo net=$?"); !strings.Contains(out, "refused") || strings.Contains(out, "net=0") {
		t.Errorf("a connection from the sandbox to the host's loopback: %q", out)
	}
	if _, err := os.Stat(filepath.Join(outside, "f")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file was created outside: %v", err)
	}
}

// TestSandboxLimitsRefuseWithoutControllers: the default --sandbox sets
// memory and process limits; where the session's cgroup v2 leaf cannot
// have them, pty_open is refused (UNSUPPORTED), never run without them.
func TestSandboxLimitsRefuseWithoutControllers(t *testing.T) {
	cs, _ := connect(t, defaultConfig(t, "--sandbox"))
	opened, res := call(t, cs, "pty_open", map[string]any{"command": "bash"})
	if !res.IsError {
		t.Logf("this host enforces the limits: %v", opened["sessionId"])
		return
	}
	if res.Meta["code"] != "UNSUPPORTED" || !strings.Contains(resultText(res), "refused") {
		t.Fatalf("pty_open: %s", resultText(res))
	}
	t.Logf("refused: %s", resultText(res))
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestSandboxSizesAreChecked: a negative size, or one whose bytes would
// overflow, stops the server at its start instead of every session later.
func TestSandboxSizesAreChecked(t *testing.T) {
	for _, args := range [][]string{
		{"--sandbox", "--sandbox-tmp-mb", "-1"},
		{"--sandbox", "--sandbox-tmp-mb", "99999999999999"},
		{"--sandbox", "--sandbox-memory-mb", "99999999999999"},
	} {
		cfg, err := parseConfig(args, io.Discard)
		if err == nil {
			_, err = cfg.Sandbox.policy()
		}
		if err == nil {
			t.Errorf("%q was accepted", args)
		}
	}
}
