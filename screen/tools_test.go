package screen

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

func newDispatcher(t *testing.T, m *Manager) *tools.Dispatcher {
	t.Helper()
	d, err := tools.NewDispatcher(tools.Options{ValidateOutput: true}, Tools(m)...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func call(t *testing.T, d *tools.Dispatcher, owner *core.Owner, name string, args any) (tools.Result, error) {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return d.Call(ctxT(t), owner, name, raw, tools.CallOptions{})
}

// TestToolsDriveVim edits a file in vi through pty_keys, looks at it with
// pty_screen and resizes it with pty_resize; every structured result is
// checked against the tool's output schema by the dispatcher.
func TestToolsDriveVim(t *testing.T) {
	e := newEnv(t, Options{})
	d := newDispatcher(t, e.m)
	file := filepath.Join(t.TempDir(), "tool.txt")
	id := e.vim(size24x80, file)

	res, err := call(t, d, e.owner, ToolKeys, map[string]any{"id": id, "text": "ihello from a model", "keys": []string{"Escape"}})
	if err != nil {
		t.Fatal(err)
	}
	kr := res.Structured.(KeysToolResult)
	if kr.WaitReason != core.WaitStdinRead || kr.Status.Exited() {
		t.Fatalf("keys settled as %s, %v", kr.WaitReason, kr.Status)
	}
	if !strings.HasPrefix(res.Text, "[stdin_read]\n") {
		t.Fatalf("text:\n%s", res.Text)
	}

	res, err = call(t, d, e.owner, ToolScreen, map[string]any{"id": id})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Structured.(Snapshot)
	if s.Rows[0] != "hello from a model" || !s.AltScreen {
		t.Fatalf("screen:\n%s", res.Text)
	}
	if !strings.Contains(res.Text, " 0>|hello from a model") {
		t.Fatalf("text:\n%s", res.Text)
	}
	raw, _ := json.Marshal(s)
	for _, key := range []string{`"rows":[`, `"cursor":{"row":0,`, `"altScreen":true`, `"size":{"rows":24,"cols":80}`, `"changedOnly":false`} {
		if !strings.Contains(string(raw), key) {
			t.Errorf("JSON lacks %s: %s", key, raw)
		}
	}

	res, err = call(t, d, e.owner, ToolResize, map[string]any{"id": id, "rows": 20, "cols": 60})
	if err != nil {
		t.Fatal(err)
	}
	if res.Structured.(ResizeResult) != (ResizeResult{Rows: 20, Cols: 60}) {
		t.Fatalf("resize result %+v", res.Structured)
	}
	e.waitFor(id, "vi at 20 rows", func(s Snapshot) bool { return s.Size.Rows == 20 && rowHas(s, 17, "~") })

	res, err = call(t, d, e.owner, ToolScreen, map[string]any{"id": id, "changedOnly": true})
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Structured.(Snapshot); !s.ChangedOnly || len(s.Rows) != len(s.Changed) {
		t.Fatalf("changedOnly: %+v", s)
	}

	if _, err := call(t, d, e.owner, ToolKeys, map[string]any{"id": id, "text": ":wq", "keys": []string{"Enter"}}); err != nil {
		t.Fatal(err)
	}
	e.waitExit(id)
	if got, _ := os.ReadFile(file); string(got) != "hello from a model\n" {
		t.Fatalf("file holds %q", got)
	}
}

// TestToolErrors checks the codes and hints of failed calls.
func TestToolErrors(t *testing.T) {
	e := newEnv(t, Options{})
	d := newDispatcher(t, e.m)
	id := e.sh(size24x80, "sleep 30")
	intruder := core.NewOwner("intruder")

	cases := []struct {
		name, tool string
		owner      *core.Owner
		args       map[string]any
		code       core.Code
		mention    string
	}{
		{"unknown key", ToolKeys, e.owner, map[string]any{"id": id, "keys": []string{"Enter", "Hyperspace"}}, core.CodeInvalidArgument, "Hyperspace"},
		{"nothing to type", ToolKeys, e.owner, map[string]any{"id": id}, core.CodeInvalidArgument, "keys"},
		{"foreign screen", ToolScreen, intruder, map[string]any{"id": id}, core.CodeForeignSession, "pty_list"},
		{"foreign resize", ToolResize, intruder, map[string]any{"id": id, "rows": 10, "cols": 10}, core.CodeForeignSession, "pty_list"},
		{"foreign keys", ToolKeys, intruder, map[string]any{"id": id, "keys": []string{"q"}}, core.CodeForeignSession, "pty_list"},
		{"no session", ToolScreen, e.owner, map[string]any{"id": "pty_nope"}, core.CodeNoSession, "pty_open"},
		{"too many rows", ToolResize, e.owner, map[string]any{"id": id, "rows": 5000, "cols": 10}, core.CodeInvalidArgument, "rows"},
		{"unknown field", ToolScreen, e.owner, map[string]any{"id": id, "zoom": 2}, core.CodeInvalidArgument, "zoom"},
	}
	for _, c := range cases {
		_, err := call(t, d, c.owner, c.tool, c.args)
		var te *tools.ToolError
		if !errors.As(err, &te) {
			t.Errorf("%s: %v is not a tool error", c.name, err)
			continue
		}
		if te.Code != string(c.code) || !strings.Contains(te.Text(), c.mention) {
			t.Errorf("%s: %s", c.name, te.Text())
		}
	}
}

// TestToolDefinitions checks that the tools register and describe their
// arguments.
func TestToolDefinitions(t *testing.T) {
	m := NewManager(Options{})
	defer m.Close()
	d := newDispatcher(t, m)
	var names []string
	for _, def := range d.Definitions() {
		names = append(names, def.Name)
		if len(def.OutputSchema) == 0 || def.Title == "" {
			t.Errorf("%s lacks an output schema or title", def.Name)
		}
	}
	if strings.Join(names, ",") != "pty_screen,pty_resize,pty_keys" {
		t.Fatalf("tools %v", names)
	}
}
