package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/testharness"
)

// requireNode returns node's path and the e2e folder with its installed
// client, failing in CI and skipping (saying why) elsewhere when missing.
func requireNode(t *testing.T) (string, string) {
	t.Helper()
	dir, _ := filepath.Abs("e2e")
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk"))
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the real MCP client is missing (%v): make deps installs node and runs npm ci in cmd/ptyseam/e2e", err)
		}
		t.Skipf("skipping the real-client test: %v (run `make deps`: it installs nodejs and runs npm ci in cmd/ptyseam/e2e)", err)
	}
	return node, dir
}

// runNode runs a client script and returns its last stdout line.
func runNode(t *testing.T, ctx context.Context, node, dir string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	out, err := cmd.Output()
	var stderr string
	if ee, ok := err.(*exec.ExitError); ok {
		stderr = string(ee.Stderr)
	}
	if err != nil {
		t.Fatalf("node %v: %v\nstdout:\n%s\nstderr:\n%s", args, err, out, stderr)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}

func TestRealMCPClientOverStdio(t *testing.T) {
	node, dir := requireNode(t)
	bin := serverBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	last := runNode(t, ctx, node, dir, "stdio-client.mjs", bin)
	var summary struct {
		OK        bool     `json:"ok"`
		ServerPid int      `json:"serverPid"`
		Tools     []string `json:"tools"`
	}
	if err := json.Unmarshal([]byte(last), &summary); err != nil || !summary.OK {
		t.Fatalf("client summary %q: %v", last, err)
	}
	// The client disconnected with a session still open: the server
	// closed it and exited, and nothing it started survives.
	waitNoSurvivors(t)
}

func TestRealMCPClientsOverHTTP(t *testing.T) {
	node, dir := requireNode(t)
	bin := serverBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	addr := freeAddr(t)
	token := randomToken()
	srv := exec.CommandContext(ctx, bin, "mcp", "--structured-results", "--http", addr, "--token", token, "--log-level", "error")
	srv.Env = os.Environ()
	stderr, _ := srv.StderrPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "serving MCP over HTTP") {
			break
		}
	}
	go func() {
		for sc.Scan() {
		}
	}()
	last := runNode(t, ctx, node, dir, "http-client.mjs", "http://"+addr+"/", token)
	if !strings.Contains(last, `"ok":true`) {
		t.Fatalf("client summary %q", last)
	}
	// Both clients ended their MCP sessions: their shells are gone while
	// the server keeps running.
	waitNoSurvivors(t, srv.Process.Pid)
	_ = srv.Process.Signal(os.Interrupt)
	if err := srv.Wait(); err != nil {
		t.Fatalf("server exit after SIGINT: %v", err)
	}
}

// freeAddr returns a loopback address on a reserved port
// (testenv.ReservePort) for a server the test starts: no other process
// can take the port before the server binds it.
func freeAddr(t *testing.T) string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(testenv.ReservePort(t)))
}

// waitNoSurvivors waits until no process carrying this test run's marker
// is left (except the given pids). The server ends a departed client's
// sessions on its own time (load): HangBound only ends a hang.
func waitNoSurvivors(t *testing.T, except ...int) {
	t.Helper()
	deadline := time.Now().Add(testenv.HangBound)
	for {
		left := testharness.Survivors(runMarker, except...)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes survived the client: %v", describe(left))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func describe(pids []int) string {
	var b strings.Builder
	for _, pid := range pids {
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		fmt.Fprintf(&b, "%d:%q ", pid, strings.ReplaceAll(string(cmd), "\x00", " "))
	}
	return b.String()
}
