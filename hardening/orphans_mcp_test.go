package hardening

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/testharness"
)

var server struct {
	once sync.Once
	bin  string
	err  error
}

// buildServer builds the ptyseam command once per test binary into a
// testharness.BuildDir (removed by the Cleanup RunMarked runs): the tests
// that run it only read the file, and a link costs several seconds of CPU.
func buildServer(t *testing.T) string {
	t.Helper()
	server.once.Do(func() {
		dir, err := testharness.BuildDir("ptyseam-")
		if err != nil {
			server.err = err
			return
		}
		bin := filepath.Join(dir, "ptyseam")
		if out, err := exec.Command("go", "build", "-o", bin, "github.com/ptyseam/ptyseam/cmd/ptyseam").CombinedOutput(); err != nil {
			server.err = fmt.Errorf("build: %v\n%s", err, out)
			return
		}
		server.bin = bin
	})
	if server.err != nil {
		t.Fatal(server.err)
	}
	return server.bin
}

// TestOrphansAfterMCPDisconnect opens sessions whose programs try to
// escape, and a background job, through the real server, then disconnects
// the client: no process may survive any round (10 in CI, 100 with
// PTYSEAM_SOAK=1).
func TestOrphansAfterMCPDisconnect(t *testing.T) {
	bin := buildServer(t)
	n := rounds(10, 100)
	for round := range n {
		ctx := testCtx(t, testenv.HangBound)
		cmd := exec.Command(bin, "mcp", "--structured-results", "--log-level", "error")
		client := mcp.NewClient(&mcp.Implementation{Name: "orphans", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		call := func(name string, args map[string]any) map[string]any {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
			if err != nil || res.IsError {
				t.Fatalf("round %d: %s: %v %+v", round, name, err, res)
			}
			m, _ := res.StructuredContent.(map[string]any)
			return m
		}
		for _, torture := range []string{
			"(setsid sh -c 'sleep 1000 & sleep 1000' &) ; sleep 0.05",
			`trap "" TERM HUP; sh -c 'trap "" TERM HUP; sleep 1000' &`,
			"for i in $(seq 100); do sleep 1000 & done",
		} {
			id := call("pty_open", map[string]any{"command": "bash"})["sessionId"].(string)
			call("pty_send", map[string]any{"id": id, "data": torture})
		}
		call("bg_launch", map[string]any{"command": "sh", "args": []string{"-c", "sleep 1000 & sleep 1000"}})
		if err := cs.Close(); err != nil {
			t.Logf("round %d: close: %v", round, err)
		}
		deadline := time.Now().Add(testenv.HangBound)
		for len(survivors()) > 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		requireNoSurvivors(t, fmt.Sprintf("round %d after the MCP client disconnected", round))
	}
}
