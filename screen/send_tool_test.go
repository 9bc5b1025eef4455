package screen

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/ptytools"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// TestFullScreenSendAndOpenReturnTheScreen opens vi with pty_open and with
// pty_send through the wrapped tools: the results hold the screen (checked
// against the output schema by the dispatcher) and an empty output field,
// while an ordinary send is untouched.
func TestFullScreenSendAndOpenReturnTheScreen(t *testing.T) {
	e := newEnv(t, Options{})
	d := facadeDispatcher(t, e)
	vi := need(t, "vi", "vim-tiny")
	dir := t.TempDir()

	id := openBash(t, d, e, dir)
	res, err := call(t, d, e.owner, ptytools.ToolSend, map[string]any{"id": id, "data": "echo plain"})
	if err != nil {
		t.Fatal(err)
	}
	if sr, ok := res.Structured.(ptysession.SendResult); !ok || !strings.Contains(sr.Delta, "plain") {
		t.Fatalf("an ordinary send changed: %#v", res.Structured)
	}
	res, err = call(t, d, e.owner, ptytools.ToolSend, map[string]any{"id": id, "data": vi + " -u NONE -i NONE -N -n " + filepath.Join(dir, "a.txt")})
	if err != nil {
		t.Fatal(err)
	}
	sr, ok := res.Structured.(SendResult)
	if !ok || sr.Screen == nil || !sr.Screen.AltScreen || sr.Delta != "" || sr.Screen.Size != size24x80 {
		t.Fatalf("send of vi: %#v\n%s", res.Structured, res.Text)
	}
	if !strings.Contains(res.Text, "full-screen program") || len(res.Text) > 1500 {
		t.Fatalf("send of vi, %d bytes of text:\n%s", len(res.Text), res.Text)
	}

	res, err = call(t, d, e.owner, ptytools.ToolOpen, map[string]any{"command": vi + " -u NONE -i NONE -N -n " + filepath.Join(dir, "b.txt"), "cols": 80, "rows": 24})
	if err != nil {
		t.Fatal(err)
	}
	or, ok := res.Structured.(OpenResult)
	if !ok || or.Screen == nil || !or.Screen.AltScreen || or.InitialOutput != "" {
		t.Fatalf("open of vi: %#v\n%s", res.Structured, res.Text)
	}
}

// TestFullScreenWaitReturnsTheScreen: a wait that fires on a session a
// full-screen program holds (a dialog that asks a second question, an
// editor a command opened late) returns the screen, as a send does, not
// the lines the drawing left in the scrollback.
func TestFullScreenWaitReturnsTheScreen(t *testing.T) {
	e := newEnv(t, Options{})
	d := facadeDispatcher(t, e)
	vi := need(t, "vi", "vim-tiny")
	dir := t.TempDir()
	id := openBash(t, d, e, dir)
	if _, err := call(t, d, e.owner, ptytools.ToolSend, map[string]any{"id": id, "data": "echo starting; sleep 1; " + vi + " -u NONE -i NONE -N -n a.txt", "timeoutMs": 100}); err != nil {
		t.Fatal(err)
	}
	res, err := call(t, d, e.owner, ptytools.ToolWait, map[string]any{"id": id, "conditions": []map[string]any{{"kind": "input"}}, "timeoutMs": 10000})
	if err != nil {
		t.Fatal(err)
	}
	wr, ok := res.Structured.(WaitResult)
	if !ok || !wr.Fired || wr.Screen == nil || !wr.Screen.AltScreen || wr.Output != "" {
		t.Fatalf("wait for vi's read: %#v\n%s", res.Structured, res.Text)
	}
	if !strings.Contains(res.Text, "full-screen program") || !strings.Contains(res.Text, "a.txt") {
		t.Fatalf("wait for vi's read: text without the screen:\n%s", res.Text)
	}
	res, err = call(t, d, e.owner, ptytools.ToolSend, map[string]any{"id": id, "data": ":q"})
	if err != nil {
		t.Fatal(err)
	}
	res, err = call(t, d, e.owner, ptytools.ToolSend, map[string]any{"id": id, "data": "sleep 0.5; echo done-$((6*7))", "timeoutMs": 100})
	if err != nil {
		t.Fatal(err)
	}
	res, err = call(t, d, e.owner, ptytools.ToolWait, map[string]any{"id": id, "conditions": []map[string]any{{"kind": "input"}}, "timeoutMs": 10000})
	if err != nil {
		t.Fatal(err)
	}
	if wr, ok := res.Structured.(ptysession.WaitResult); !ok || !strings.Contains(wr.Output, "done-42") {
		t.Fatalf("a wait on the shell changed: %#v\n%s", res.Structured, res.Text)
	}
}

// openBash opens bash on an 80x24 terminal in dir through d's pty_open.
func openBash(t *testing.T, d *tools.Dispatcher, e *env, dir string) core.SessionID {
	t.Helper()
	res, err := call(t, d, e.owner, ptytools.ToolOpen, map[string]any{"command": "bash", "cwd": dir, "cols": 80, "rows": 24})
	if err != nil {
		t.Fatal(err)
	}
	return res.Structured.(ptysession.OpenResult).SessionID
}

// facadeDispatcher serves the screen tools and ptysession's pty tools
// over e's service, pty_send, pty_open and pty_wait wrapped by
// FullScreenSend, FullScreenOpen and FullScreenWait, the screens following the facade's tails as the server
// sets them up.
func facadeDispatcher(t *testing.T, e *env) *tools.Dispatcher {
	t.Helper()
	sessions := ptysession.New(e.svc, ptysession.Options{})
	e.m.FollowTails(sessions)
	all := Tools(e.m)
	for _, tool := range ptytools.Tools(sessions) {
		switch tool.Name {
		case ptytools.ToolSend:
			tool = FullScreenSend(e.m, tool)
		case ptytools.ToolOpen:
			tool = FullScreenOpen(e.m, tool)
		}
		all = append(all, tool)
	}
	all = append(all, FullScreenWait(e.m, ptytools.WaitTool(sessions)))
	d, err := tools.NewDispatcher(tools.Options{ValidateOutput: true}, all...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
