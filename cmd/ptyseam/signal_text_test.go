package main

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// TestPtySignalTextMatchesBehaviour: SIGHUP to an idle shell ends the
// session; the tool's description says so (it used to promise signals go
// "not to the shell"), and so does the result.
func TestPtySignalTextMatchesBehaviour(t *testing.T) {
	cs, _ := connect(t, defaultConfig(t))
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Name == "pty_signal" && (strings.Contains(tool.Description, "not to the shell") || !strings.Contains(tool.Description, "SIGHUP ends it")) {
			t.Errorf("pty_signal's description does not say what SIGHUP does to an idle shell: %q", tool.Description)
		}
	}
	opened, _ := call(t, cs, "pty_open", map[string]any{"command": "bash"})
	id := opened["sessionId"].(string)
	// SIGTERM reaches the idle shell, which ignores it.
	term, res := call(t, cs, "pty_signal", map[string]any{"id": id, "signal": "SIGTERM"})
	if res.IsError || term["leader"] != true {
		t.Fatalf("SIGTERM to the idle shell: %+v", res)
	}
	if sent, _ := call(t, cs, "pty_send", map[string]any{"id": id, "data": "echo still-here"}); !strings.Contains(sent["delta"].(string), "still-here") {
		t.Fatalf("the shell did not survive SIGTERM: %v", sent)
	}
	// SIGKILL is refused.
	if _, res := call(t, cs, "pty_signal", map[string]any{"id": id, "signal": "SIGKILL"}); !res.IsError || res.Meta["code"] != "SIGNAL_REFUSED" {
		t.Fatalf("SIGKILL to the idle shell was not refused: %+v", res)
	}
	// SIGHUP ends it, as the text says.
	hup, res := call(t, cs, "pty_signal", map[string]any{"id": id, "signal": "SIGHUP"})
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError || hup["leader"] != true || !strings.Contains(text, "hangup ends the shell") {
		t.Fatalf("SIGHUP result: %q %+v", text, hup)
	}
	// Wait for the exit itself (a loaded machine can take seconds to
	// reap a shell and drain its terminal); the bound only ends a hang.
	waited, res := call(t, cs, "pty_wait", map[string]any{"conditions": []any{map[string]any{"kind": "exit", "target": id}}, "timeoutMs": testenv.HangBound.Milliseconds()})
	if res.IsError || waited["fired"] != true {
		listed, _ := call(t, cs, "pty_list", map[string]any{})
		t.Fatalf("the session still runs %v after SIGHUP to its idle shell: %v; %v", testenv.HangBound, waited, listed)
	}
	listed, _ := call(t, cs, "pty_list", map[string]any{})
	sessions, _ := listed["sessions"].([]any)
	if len(sessions) != 1 {
		t.Fatalf("pty_list after the exit: %v", listed)
	}
	if st, _ := sessions[0].(map[string]any)["status"].(map[string]any); st["kind"] == "running" {
		t.Fatalf("pty_wait saw the exit, pty_list says the session runs: %v", listed)
	}
}
