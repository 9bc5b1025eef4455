package screen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// vim starts vi (vim-tiny or vim) on file without any configuration.
func (e *env) vim(size core.Size, file string) core.SessionID {
	e.t.Helper()
	vi := need(e.t, "vi", "vim-tiny")
	id := e.spawn(size, vi, "-u", "NONE", "-i", "NONE", "-N", "-n", file)
	e.waitFor(id, "vi's empty-buffer lines", func(s Snapshot) bool {
		return s.AltScreen && rowHas(s, int(size.Rows)-3, "~")
	})
	return id
}

// TestVimEditAndSave edits a file in vi through named keys and saves it.
func TestVimEditAndSave(t *testing.T) {
	e := newEnv(t, Options{})
	file := filepath.Join(t.TempDir(), "notes.txt")
	id := e.vim(size24x80, file)

	r := e.keys(id, "ifirst line", "Enter")
	if r.Send.WaitReason != core.WaitStdinRead {
		t.Errorf("typing into vi settled as %s, want stdin_read", r.Send.WaitReason)
	}
	e.keys(id, "second line", "Escape")
	// Back up to the first line with the arrows (vi turned on
	// application-cursor mode) and append to it.
	e.keys(id, "", "Up", "End")
	e.keys(id, "a!", "Escape")
	s := e.waitFor(id, "both lines", func(s Snapshot) bool {
		return s.Rows[0] == "first line!" && s.Rows[1] == "second line"
	})
	if s.Cursor.Row != 0 {
		t.Errorf("cursor %+v, want row 0", s.Cursor)
	}
	e.keys(id, ":wq", "Enter")
	if st := e.waitExit(id); st.ExitCode != 0 {
		t.Fatalf("vi exited with %v", st)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "first line!\nsecond line\n" {
		t.Fatalf("file holds %q", got)
	}
}

// TestVimTakesASentBlockAsWritten: a Python function sent (pty_send's
// data) to vi in insert mode with autoindent is saved as written, then
// the send's Enter: vi asked for bracketed paste and the block goes as
// one paste. Typed line by line, each line would take the indentation of
// the one before on top of its own.
func TestVimTakesASentBlockAsWritten(t *testing.T) {
	e := newEnv(t, Options{})
	file := filepath.Join(t.TempDir(), "f.py")
	vi := need(t, "vi", "vim-tiny")
	id := e.spawn(size24x80, vi, "-u", "NONE", "-i", "NONE", "-N", "-n", "-c", "set autoindent", file)
	e.waitFor(id, "vi's empty-buffer lines", func(s Snapshot) bool { return s.AltScreen && rowHas(s, 21, "~") })
	e.keys(id, "i")
	const block = "def f(x):\n    if x:\n        return 1\n    return 2\n\nprint(f(0))"
	op, err := e.svc.Send(ctxT(t), e.owner, id, core.SendRequest{Data: block})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := op.Wait(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	e.keys(id, "", "Escape")
	e.keys(id, ":wq", "Enter")
	if st := e.waitExit(id); st.ExitCode != 0 {
		t.Fatalf("vi exited with %v", st)
	}
	if got, err := os.ReadFile(file); err != nil || string(got) != block+"\n\n" {
		t.Fatalf("vi saved %q (%v), want the block as sent and an empty line", got, err)
	}
}

// TestLessPageDown pages through a 1,000-line file in less.
func TestLessPageDown(t *testing.T) {
	less := need(t, "less", "less")
	e := newEnv(t, Options{})
	file := filepath.Join(t.TempDir(), "long.txt")
	var b strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	id := e.spawn(size24x80, less, file)
	s := e.waitFor(id, "the first page", func(s Snapshot) bool { return s.Rows[0] == "line 1" && s.Rows[22] == "line 23" })
	if !strings.HasPrefix(s.Rows[23], ":") && !strings.Contains(s.Rows[23], "long.txt") {
		t.Errorf("prompt row %q", s.Rows[23])
	}
	e.keys(id, "", "PageDown")
	s = e.waitFor(id, "the second page", func(s Snapshot) bool { return s.Rows[0] == "line 24" })
	for i := 0; i < 23; i++ {
		if want := fmt.Sprintf("line %d", 24+i); s.Rows[i] != want {
			t.Fatalf("row %d = %q, want %q\n%s", i, s.Rows[i], want, s.Text())
		}
	}
	e.keys(id, "", "End") // less: the last page
	e.waitFor(id, "the last page", func(s Snapshot) bool { return s.Rows[22] == "line 1000" })
	e.keys(id, "q")
	e.waitExit(id)
}

// TestCursesMenu drives a Python curses menu with the arrows and Enter,
// reading it from the snapshot.
func TestCursesMenu(t *testing.T) {
	py := python(t)
	e := newEnv(t, Options{})
	out := filepath.Join(t.TempDir(), "choice")
	id := e.spawn(size24x80, py, testdata(t, "menu.py"), out)
	s := e.waitFor(id, "the menu", func(s Snapshot) bool { return rowHas(s, 2, "> apple") })
	if !rowHas(s, 0, "Pick a fruit") || !rowHas(s, 3, "  banana") || s.Cursor.Visible {
		t.Fatalf("menu:\n%s", s.Text())
	}
	r := e.keys(id, "", "Down", "Down")
	s = r.Screen
	if !rowHas(s, 4, "> cherry") {
		s = e.waitFor(id, "cherry selected", func(s Snapshot) bool { return rowHas(s, 4, "> cherry") })
	}
	if anyRowHas(s, "unexpected key") {
		t.Fatalf("curses did not recognize the arrows:\n%s", s.Text())
	}
	e.keys(id, "", "Up")
	e.waitFor(id, "banana selected", func(s Snapshot) bool { return rowHas(s, 3, "> banana") })
	e.keys(id, "", "Down", "Enter")
	if st := e.waitExit(id); st.ExitCode != 0 {
		t.Fatalf("menu exited with %v:\n%s", st, e.output(id))
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "cherry\n" {
		t.Fatalf("picked %q", got)
	}
}

// TestResizeVim resizes the terminal while vi runs: vi redraws at the new
// size and reports it, and the snapshot has it.
func TestResizeVim(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.vim(size24x80, filepath.Join(t.TempDir(), "x.txt"))
	newSize := core.Size{Rows: 30, Cols: 100}
	if err := e.m.Resize(ctxT(t), e.owner, id, newSize); err != nil {
		t.Fatal(err)
	}
	s := e.waitFor(id, "vi redrawn at 30 rows", func(s Snapshot) bool { return rowHas(s, 27, "~") })
	if s.Size != newSize || len(s.Rows) != 30 {
		t.Fatalf("size %v with %d rows", s.Size, len(s.Rows))
	}
	e.keys(id, ":set lines? columns?", "Enter")
	e.waitFor(id, "vi's answer", func(s Snapshot) bool { return anyRowHas(s, "lines=30") && anyRowHas(s, "columns=100") })
	e.keys(id, "", "Enter")
	e.keys(id, ":q!", "Enter")
	e.waitExit(id)
}

// TestResizeShell checks that a program sees the new size (stty size) and
// that the emulator follows.
func TestResizeShell(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.sh(size24x80, `trap 'stty size' WINCH; stty size; while :; do sleep 0.05; done`)
	e.waitFor(id, "24 80", func(s Snapshot) bool { return rowHas(s, 0, "24 80") })
	if err := e.m.Resize(ctxT(t), e.owner, id, core.Size{Rows: 10, Cols: 40}); err != nil {
		t.Fatal(err)
	}
	s := e.waitFor(id, "10 40", func(s Snapshot) bool { return anyRowHas(s, "10 40") })
	if s.Size != (core.Size{Rows: 10, Cols: 40}) || len(s.Rows) != 10 {
		t.Fatalf("size %v, %d rows", s.Size, len(s.Rows))
	}
	for _, bad := range []core.Size{{}, {Rows: 5000, Cols: 10}} {
		if err := e.m.Resize(ctxT(t), e.owner, id, bad); !isCode(err, core.CodeInvalidArgument) {
			t.Errorf("resize to %v: %v", bad, err)
		}
	}
}

// TestArrowsFollowCursorMode checks the bytes a program receives for the
// arrows in either cursor mode.
func TestArrowsFollowCursorMode(t *testing.T) {
	py := python(t)
	for mode, want := range map[string]string{"on": `GOT b'\x1bOA\x1b[1;5D'`, "off": `GOT b'\x1b[A\x1b[1;5D'`} {
		t.Run(mode, func(t *testing.T) {
			e := newEnv(t, Options{})
			id := e.spawn(size24x80, py, testdata(t, "appcursor.py"), mode)
			e.waitFor(id, "READY", func(s Snapshot) bool { return rowHas(s, 0, "READY") })
			app, err := e.m.AppCursor(ctxT(t), e.owner, id)
			if err != nil || app != (mode == "on") {
				t.Fatalf("AppCursor = %v, %v", app, err)
			}
			e.keys(id, "", "Up", "C-Left")
			e.waitFor(id, want, func(s Snapshot) bool { return rowHas(s, 1, want) })
			e.keys(id, "q")
			e.waitExit(id)
		})
	}
}
