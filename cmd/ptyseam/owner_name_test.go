package main

import (
	"strings"
	"testing"
)

// A connection without an MCP session id (stdio) has an owner whose name
// says so: the watch page heads its sessions with it.
func TestStdioOwnerHasAName(t *testing.T) {
	cs, ts := connect(t, defaultConfig(t))
	if _, res := call(t, cs, "pty_list", map[string]any{}); res.IsError {
		t.Fatal(resultText(res))
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if len(ts.owners) != 1 {
		t.Fatalf("%d owners", len(ts.owners))
	}
	for _, o := range ts.owners {
		if name := o.Name(); strings.HasSuffix(name, "-") || name != "mcp-stdio" {
			t.Fatalf("the owner is named %q", name)
		}
	}
}
