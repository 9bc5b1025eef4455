package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// jobText waits for job id to end and returns its output lines joined.
func jobText(t *testing.T, cs *mcp.ClientSession, id string) string {
	t.Helper()
	deadline := time.Now().Add(testenv.HangBound)
	for {
		read, res := call(t, cs, "bg_read", map[string]any{"id": id, "from": 0, "limit": 200})
		if res.IsError {
			t.Fatalf("bg_read: %s", resultText(res))
		}
		if read["status"] != "running" {
			var lines []string
			items, _ := read["lines"].([]any)
			for _, l := range items {
				m, _ := l.(map[string]any)
				s, _ := m["text"].(string)
				lines = append(lines, s)
			}
			return strings.Join(lines, "\n")
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s did not end: %v", id, read)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSandboxedJobs: with --sandbox the bg_* tools are served and every
// job runs confined like a terminal (it is one): no write outside
// --sandbox-rw, no network; a job asking for pipes is refused, and
// --jobs-backend pipe does not start.
func TestSandboxedJobs(t *testing.T) {
	allowed, outside := t.TempDir(), t.TempDir()
	cs, _ := connect(t, defaultConfig(t, "--sandbox", "--sandbox-rw", allowed, "--sandbox-memory-mb", "0", "--sandbox-pids", "0"))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	script := "echo no > " + outside + "/f; echo rc=$?; echo yes > " + allowed + "/f; echo rc=$?; " +
		"(exec 3<>/dev/tcp/127.0.0.1/" + port + ") 2>&1; echo net=$?"
	launched, res := call(t, cs, "bg_launch", map[string]any{"command": "bash", "args": []string{"-c", script}})
	if res.IsError {
		t.Fatalf("bg_launch under --sandbox: %s", resultText(res))
	}
	if !strings.Contains(resultText(res), "backend pty") {
		t.Fatalf("a sandboxed job ran elsewhere than on a pty: %s", resultText(res))
	}
	out := jobText(t, cs, launched["id"].(string))
	// Refused (Landlock), or not there (outside is under /tmp, which the
	// job's own /tmp hides).
	if !strings.Contains(out, "rc=1\nrc=0") && !strings.Contains(out, "rc=2\nrc=0") {
		t.Errorf("the job's writes outside and inside --sandbox-rw: %q", out)
	}
	if !strings.Contains(out, "refused") || strings.Contains(out, "net=0") {
		t.Errorf("the job's connection to the host's loopback: %q", out)
	}
	if _, err := os.Stat(filepath.Join(outside, "f")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a job created a file outside: %v", err)
	}
	_, res = call(t, cs, "bg_launch", map[string]any{"command": "true", "backend": "pipe"})
	if !res.IsError || res.Meta["code"] != "UNSUPPORTED" {
		t.Errorf("a pipe job under --sandbox: %s", resultText(res))
	}
	if _, err := parseConfig([]string{"--sandbox", "--jobs-backend", "pipe"}, io.Discard); err == nil || !strings.Contains(err.Error(), "--jobs-backend") {
		t.Errorf("--sandbox with --jobs-backend pipe: %v", err)
	}
}

// TestSandboxedJobServesTheHost: with --sandbox-network a sandboxed job's
// python3 -m http.server answers the host, serving a directory of the
// host's /tmp that --sandbox-ro lists (the rest of /tmp is the job's own).
func TestSandboxedJobServesTheHost(t *testing.T) {
	served := t.TempDir()
	cs, _ := connect(t, defaultConfig(t, "--sandbox", "--sandbox-network", "--sandbox-ro", "/,"+served, "--sandbox-memory-mb", "0", "--sandbox-pids", "0"))
	port := testenv.ReservePort(t)
	launched, res := call(t, cs, "bg_launch", map[string]any{"command": "python3",
		"args":    []string{"-m", "http.server", strconv.Itoa(port), "--bind", "127.0.0.1", "--directory", served},
		"waitFor": map[string]any{"port": port, "timeoutMs": 30000}})
	if res.IsError {
		t.Fatalf("bg_launch: %s", resultText(res))
	}
	if ready, _ := launched["ready"].(map[string]any); ready["ready"] != true {
		t.Fatalf("the server never listened: %v", launched)
	}
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/", port))
	if err != nil {
		t.Fatalf("GET from the host: %v", err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET from the host: %s", resp.Status)
	}
}
