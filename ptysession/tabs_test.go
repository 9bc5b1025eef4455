package ptysession

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// A tab typed to bash's line editor completes a name instead of standing
// for itself: a heredoc that writes a Makefile or Go source lost its
// indentation, and a tab after a word took a file name's rest into the
// file ("x\ty" wrote "x.txt y"). Sent to a shell that reads its line,
// each tab goes quoted (Ctrl-V), so the file holds the bytes sent.
func TestTabsInAHeredocReachTheFile(t *testing.T) {
	body := "all:\n\techo \"built\"\n\tx\ty\n\t\tdeep\tend\n"
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "x.txt"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Cwd: dir})
		res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "cat > Makefile <<'EOF'\n" + body + "EOF"})
		if err != nil {
			t.Fatal(err)
		}
		if res.WaitReason != core.WaitPrompt {
			t.Fatalf("the heredoc settled %s: %q", res.WaitReason, res.Delta)
		}
		got, err := os.ReadFile(filepath.Join(dir, "Makefile"))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != body {
			t.Fatalf("the file holds %q, want %q (the terminal showed %q)", got, body, res.Delta)
		}
		// A heredoc's lines sent after its first: the shell holds the
		// terminal, at its continuation prompt.
		if _, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "cat > b.txt <<'EOF'"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "\tx\ty\nEOF"}); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(filepath.Join(dir, "b.txt")); err != nil || string(got) != "\tx\ty\n" {
			t.Fatalf("the second heredoc's file holds %q (%v)", got, err)
		}
		// A heredoc longer than the terminal's input buffer (4 KiB): past
		// it, lines reach the terminal between two reads of the line
		// editor, where the line discipline would take the Ctrl-V.
		big := strings.Repeat("\tx\ty\tline of text\n", 600)
		if _, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "cat > big.txt <<'EOF'\n" + big + "EOF"}); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(filepath.Join(dir, "big.txt")); err != nil || string(got) != big {
			t.Fatalf("the long heredoc's file holds %d bytes (want %d), the first differing line %q (%v)", len(got), len(big), firstOtherLine(string(got), "\tx\ty\tline of text"), err)
		}
		// A line typed at the prompt keeps its tab too.
		res, err = s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "printf '%s|' a\tx"})
		if err != nil {
			t.Fatal(err)
		}
		if want := "a|x|"; !strings.Contains(res.Delta, want) {
			t.Fatalf("printf with a tab between its arguments: %q, want %q", res.Delta, want)
		}
	})
}

// firstOtherLine returns the first line of s that is not line.
func firstOtherLine(s, line string) string {
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if l != line {
			return l
		}
	}
	return ""
}

// Python's console up to 3.12 reads its lines with GNU readline, which
// takes a tab after other text for completion: a tab inside a string
// vanished ('a\tb' became 'ab'). Typed there, a tab goes quoted too.
func TestTabsReachPythonsConsole(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "python3 -q"})
		res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "s = 'a\tb'; print(repr(s))"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Delta, `'a\tb'`) {
			t.Fatalf("a tab in a string typed to python3: %q, want 'a\\tb'", res.Delta)
		}
		res, err = s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "for i in range(2):\n\tprint(repr('x\ty'), i)"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Delta, `'x\ty' 1`) {
			t.Fatalf("a block indented with tabs typed to python3: %q", res.Delta)
		}
		// Longer than the terminal's input buffer: written in pieces, each
		// once the console reads again.
		big := "rows = [\n" + strings.Repeat("\t'x\ty',\n", 600) + "]\nprint(len(rows), len([r for r in rows if r == 'x\ty']))"
		res, err = s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: big})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Delta, "\n600 600\n") {
			t.Fatalf("a %d-byte list with tabs typed to python3 ends %q", len(big), res.Delta[max(0, len(res.Delta)-200):])
		}
	})
}

// Every other program that reads its lines with GNU readline (gdb,
// sqlite3, bc, psql) takes a typed tab the same way: gdb's echo of "a\tb"
// would print "ab", and sqlite3 would store a string without its tab. Readline
// asks for bracketed paste while it reads a line and hides no cursor;
// typed to such a reader, a tab goes quoted too.
func TestTabsReachReadlinePrograms(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "gdb -q -nx"})
		res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: `echo [a` + "\t" + `b]\n`})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Delta, "[a\tb]") {
			t.Fatalf("a tab typed to gdb's echo: %q, want [a\\tb]", res.Delta)
		}
	})
}
