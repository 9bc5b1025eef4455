package main

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestDefaultToolList checks the list a client receives from `ptyseam mcp`
// with no --tools: at most 16 KB, with every tool of a model's everyday
// terminal work, no output schemas, and no description naming a tool the
// profile leaves out; an argument a tool does not take is still refused.
func TestDefaultToolList(t *testing.T) {
	cs, _ := connect(t, defaultConfig(t))
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	j, _ := json.Marshal(list.Tools)
	if len(j) > 16<<10 {
		t.Errorf("the default tool list is %d bytes, over 16 KB", len(j))
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if tool.OutputSchema != nil {
			t.Errorf("%s serves an output schema", tool.Name)
		}
	}
	want := []string{"bg_launch", "bg_read", "bg_stop", "pty_close", "pty_keys", "pty_list", "pty_open", "pty_read",
		"pty_screen", "pty_secret", "pty_send", "pty_signal", "pty_tail", "pty_wait"}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Errorf("the default profile serves %v, want %v", names, want)
	}
	left := regexp.MustCompile(`\b(pty_resize|pty_search|bg_list|bg_send|bg_drop|bg_stop_group)\b`)
	for _, tool := range list.Tools {
		in, _ := json.Marshal(tool.InputSchema)
		if m := left.FindString(tool.Description + string(in)); m != "" {
			t.Errorf("%s names %s, which the default profile does not serve", tool.Name, m)
		}
	}
	_, res := call(t, cs, "pty_list", map[string]any{"all": true})
	if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "all") {
		t.Errorf("an argument pty_list does not take was accepted: %+v", res)
	}
}
