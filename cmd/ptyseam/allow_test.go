package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

func resultText(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// waitExited waits for session id's exit with pty_wait (kind exit); the
// bound only ends a hang.
func waitExited(t *testing.T, cs *mcp.ClientSession, id string) {
	t.Helper()
	waited, res := call(t, cs, "pty_wait", map[string]any{"conditions": []any{map[string]any{"kind": "exit", "target": id}}, "timeoutMs": testenv.HangBound.Milliseconds()})
	if res.IsError || waited["fired"] != true {
		list, _ := call(t, cs, "pty_list", map[string]any{})
		t.Fatalf("session %s did not exit within %v: %s %v; %v", id, testenv.HangBound, resultText(res), waited, list)
	}
}

// allOutput returns everything session id printed (pty_read from line 0).
func allOutput(t *testing.T, cs *mcp.ClientSession, id string) string {
	t.Helper()
	m, res := call(t, cs, "pty_read", map[string]any{"id": id, "start": 0})
	if res.IsError {
		t.Fatalf("pty_read: %s", resultText(res))
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// TestAllowlistIsABoundary tries each way out of `--allow python3` that
// gave a shell when commands were typed into bash: none may run `id` or
// create a file.
func TestAllowlistIsABoundary(t *testing.T) {
	dir := t.TempDir()
	cs, _ := connect(t, defaultConfig(t, "--allow", "python3"))
	noTrace := func(t *testing.T, out string) {
		t.Helper()
		if strings.Contains(out, "uid=") {
			t.Errorf("id ran: %s", out)
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			t.Errorf("a file was created: %s", e.Name())
			_ = os.Remove(dir + "/" + e.Name())
		}
	}
	t.Run("refused", func(t *testing.T) {
		for _, cmd := range []string{"", " ", "\t\n", "bash", "/bin/sh -c id", "id", "/tmp/x/python3 -c 1", "./python3", "python", `"" python3`} {
			_, res := call(t, cs, "pty_open", map[string]any{"command": cmd, "cwd": dir})
			if !res.IsError || res.Meta["code"] != "INVALID_ARGUMENT" {
				t.Errorf("pty_open %q was not refused: %s", cmd, resultText(res))
			}
		}
		_, res := call(t, cs, "pty_open", map[string]any{"command": "python3 -q", "env": map[string]any{"LD_PRELOAD": "/tmp/x.so"}})
		if !res.IsError {
			t.Errorf("an environment was accepted under an allowlist: %s", resultText(res))
		}
		noTrace(t, "")
	})
	t.Run("operators are arguments", func(t *testing.T) {
		for _, cmd := range []string{
			"python3 -c 1; id", "python3 -c 1; touch f1", "python3 -c 1 $(id > f2)", "python3 -c 1 `touch f3`",
			"python3 -c 1 && echo ran && id", "python3 -c 1 | id", "python3 -c 1 > f4", "python3 -c 1\nid\ntouch f5",
		} {
			opened, res := call(t, cs, "pty_open", map[string]any{"command": cmd, "cwd": dir})
			if res.IsError {
				t.Fatalf("pty_open %q: %s", cmd, resultText(res))
			}
			id := opened["sessionId"].(string)
			waitExited(t, cs, id)
			out := allOutput(t, cs, id)
			if strings.Contains(out, "ran") {
				t.Errorf("%q: echo ran: %s", cmd, out)
			}
			noTrace(t, out)
			call(t, cs, "pty_close", map[string]any{"id": id})
		}
	})
	for _, end := range []string{"exit", "SIGKILL"} {
		t.Run("typing after the program ends/"+end, func(t *testing.T) {
			opened, res := call(t, cs, "pty_open", map[string]any{"command": "python3 -q", "cwd": dir})
			if res.IsError {
				t.Fatalf("pty_open: %s", resultText(res))
			}
			id := opened["sessionId"].(string)
			if end == "exit" {
				call(t, cs, "pty_send", map[string]any{"id": id, "data": "exit()"})
			} else if _, res := call(t, cs, "pty_signal", map[string]any{"id": id, "signal": "SIGKILL"}); res.IsError {
				t.Fatalf("pty_signal: %s", resultText(res))
			}
			waitExited(t, cs, id)
			_, res = call(t, cs, "pty_send", map[string]any{"id": id, "data": "id; touch f6"})
			if !res.IsError || res.Meta["code"] != "SESSION_EXITED" {
				t.Errorf("typing into an ended session was not refused: %s", resultText(res))
			}
			_, res = call(t, cs, "pty_keys", map[string]any{"id": id, "keys": []string{"i", "d", "Enter"}})
			if !res.IsError {
				t.Errorf("keys into an ended session were not refused: %s", resultText(res))
			}
			noTrace(t, allOutput(t, cs, id))
			call(t, cs, "pty_close", map[string]any{"id": id})
		})
	}
}
