package main

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pty_list's text names every open session, as its structured part does.
func TestListTextNamesEverySession(t *testing.T) {
	cs, _ := connect(t, defaultConfig(t))
	var ids []string
	for range 2 {
		opened, res := call(t, cs, "pty_open", map[string]any{"command": "bash"})
		if res.IsError {
			t.Fatalf("pty_open: %s", res.Content[0].(*mcp.TextContent).Text)
		}
		ids = append(ids, opened["sessionId"].(string))
	}
	listed, res := call(t, cs, "pty_list", map[string]any{})
	text := res.Content[0].(*mcp.TextContent).Text
	if sessions, _ := listed["sessions"].([]any); len(sessions) != 2 {
		t.Fatalf("structured: %v", listed)
	}
	for _, id := range ids {
		if !strings.Contains(text, id) {
			t.Errorf("pty_list's text does not name %s:\n%s", id, text)
		}
	}
}

// pty_open of a command that exits says how it exited, as pty_send does.
func TestOpenReportsTheCommandsExitCode(t *testing.T) {
	cs, _ := connect(t, defaultConfig(t))
	opened, res := call(t, cs, "pty_open", map[string]any{"command": "ls /nonexistent-ptyseam"})
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError || opened["exitCode"] != 2.0 || !strings.Contains(text, "command exit code 2") {
		t.Fatalf("pty_open of a failing command: %q %v", text, opened)
	}
}
