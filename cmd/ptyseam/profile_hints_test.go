package main

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolName matches a tool's name in text (a session's or a job's id has
// digits or is longer than any tool's).
var toolName = regexp.MustCompile(`\b(pty|bg)_[a-z]+(_[a-z]+)?\b`)

// allTools are the names of every tool the full profile serves.
func allTools(t *testing.T) []string {
	t.Helper()
	cs, _ := connect(t, defaultConfig(t, "--tools", "full"))
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// idArgs are the arguments each tool that takes an id is called with,
// besides the id.
var idArgs = map[string]map[string]any{
	"pty_send": {"data": "true"}, "pty_tail": {}, "pty_close": {}, "pty_keys": {"text": "x"},
	"pty_signal": {"signal": "SIGINT"}, "pty_read": {}, "pty_screen": {}, "pty_resize": {"rows": 30, "cols": 100},
	"pty_search": {"pattern": "x"}, "pty_secret": {"prompt": "Password"},
	"bg_send": {"data": "x"}, "bg_read": {}, "bg_stop": {}, "bg_drop": {},
}

// TestTextNamesOnlyServedTools: under every profile, no description and
// no error's hint names a tool the profile does not serve (a hint naming
// bg_send under the standard profile sent a model to a tool it lacks).
// The errors are those a model meets most: an unknown id, a foreign one,
// a job's id given to a terminal's tool and a terminal's to a job's.
func TestTextNamesOnlyServedTools(t *testing.T) {
	every := allTools(t)
	for _, profile := range []string{"core", "standard", "full", "full --allow"} {
		t.Run(profile, func(t *testing.T) {
			args := append([]string{"--tools"}, strings.Fields(profile)...)
			if strings.HasSuffix(profile, "--allow") {
				args = append(args, "bash,sleep") // no job tools under an allowlist
			}
			cs, ts := connect(t, defaultConfig(t, args...))
			list, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			served := map[string]bool{}
			for _, tool := range list.Tools {
				served[tool.Name] = true
			}
			check := func(what, text string) {
				t.Helper()
				for _, m := range toolName.FindAllString(text, -1) {
					if slices.Contains(every, m) && !served[m] {
						t.Errorf("%s names %s, which profile %s does not serve:\n%s", what, m, profile, text)
					}
				}
			}
			for _, tool := range list.Tools {
				check(tool.Name+"'s description", tool.Description)
			}
			opened, res := call(t, cs, "pty_open", map[string]any{"command": "bash"})
			if res.IsError {
				t.Fatalf("pty_open: %s", res.Content[0].(*mcp.TextContent).Text)
			}
			ids := []string{"pty_2z2z2z2z2z2z2z2z2z2z2z2z2z", "job_2z2z2z2z2z2z2z2z2z2z2z2z2z", opened["sessionId"].(string)}
			if served["bg_launch"] {
				job, res := call(t, cs, "bg_launch", map[string]any{"command": "sleep", "args": []string{"60"}})
				if res.IsError {
					t.Fatalf("bg_launch: %s", res.Content[0].(*mcp.TextContent).Text)
				}
				ids = append(ids, job["id"].(string))
			}
			// Another client's session: foreign to this one.
			other := connectAgain(t, ts)
			if theirs, res := call(t, other, "pty_open", map[string]any{"command": "bash"}); !res.IsError {
				ids = append(ids, theirs["sessionId"].(string))
			}
			errs := 0
			for _, tool := range list.Tools {
				extra, ok := idArgs[tool.Name]
				if !ok || tool.Name == "pty_close" {
					continue
				}
				for _, id := range ids {
					args := map[string]any{"id": id}
					for k, v := range extra {
						args[k] = v
					}
					_, res := call(t, cs, tool.Name, args)
					if res.IsError {
						errs++
						check(tool.Name+"'s error for "+id, res.Content[0].(*mcp.TextContent).Text)
					}
				}
			}
			if errs < 2*len(ids) {
				t.Fatalf("only %d errors to check", errs)
			}
		})
	}
}

// connectAgain connects another client to ts.
func connectAgain(t *testing.T, ts *toolServer) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := ts.server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "other", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
	return cs
}
