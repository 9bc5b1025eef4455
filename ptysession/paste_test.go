package ptysession

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// indentingREPL is a python3 REPL whose line editor indents as Python's
// own REPL does from 3.13 (and IPython): after Enter, the next line
// starts with the last line's indentation, one level more after a
// colon, and a blank line runs the block. With the argument "paste" it
// asks for bracketed paste and hides the cursor as such editors do while
// they redraw, and inserts a paste as it is.
const indentingREPL = `
import os, sys, termios, traceback
paste_mode = sys.argv[1] == "paste"
a = termios.tcgetattr(0); a[3] &= ~(termios.ICANON | termios.ECHO); termios.tcsetattr(0, termios.TCSANOW, a)
out = lambda s: os.write(1, s.encode())
env, block, line, pasting, esc = {}, "", "", False, ""
def enter():
    global block, line
    out("\r\n")
    src = block + line
    if line.strip() == "" or (block == "" and "\n" not in line and not line.rstrip().endswith(":")):
        block, line = "", ""
        if src.strip():
            try:
                exec(compile(src + "\n", "<stdin>", "single"), env)
            except Exception as e:
                out("%s: %s\r\n" % (type(e).__name__, e))
        out(">>> ")
        return
    last = line.split("\n")[-1]
    ind = len(last) - len(last.lstrip()) + (4 if last.rstrip().endswith(":") else 0)
    block, line = src + "\n", " " * ind
    out("... " + line)
if paste_mode:
    out("\x1b[?2004h\x1b[?25l")
out(">>> ")
while True:
    for ch in os.read(0, 4096).decode():
        if esc or ch == "\x1b":
            esc += ch
            if esc == "\x1b[200~": pasting, esc = True, ""
            elif esc == "\x1b[201~": pasting, esc = False, ""
            elif len(esc) >= 6: esc = ""
        elif ch == "\n" and not pasting:
            enter()
        elif ch == "\n":
            line += "\n"
            out("\r\n... ")
        else:
            line += ch
            out(ch)
`

// TestBlockSentToAnIndentingEditorKeepsItsIndentation: a block sent to a
// REPL that indents by itself and asked for bracketed paste goes as a
// paste and runs as written; typed line by line, its indentation would
// double and its dedent would be lost.
func TestBlockSentToAnIndentingEditorKeepsItsIndentation(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: JoinCommand([]string{"python3", "-c", indentingREPL, "paste"})})
		waitTailSuffixFrom(t, s, owner, r.SessionID, r.InitialOutput, ">>> ")
		send := func(data string) string {
			t.Helper()
			res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: data})
			if err != nil {
				t.Fatal(err)
			}
			if res.WaitReason != core.WaitStdinRead {
				t.Fatalf("send %q settled %s: %q", data, res.WaitReason, res.Delta)
			}
			return res.Delta
		}
		if d := send("def f(x):\n    if x:\n        return 1\n    return 2\n\n"); strings.Contains(d, "Error") {
			t.Fatalf("the block did not run as written: %q", d)
		}
		if d := send("print(f(0), f(1))"); !strings.Contains(d, "\n2 1\n") {
			t.Fatalf("f(0), f(1): %q", d)
		}
		// A class with a blank line between its methods, then a call:
		// the blank line before the call ends the block, as typed.
		d := send("class A:\n    def g(self):\n        return 'g'\n\n    def h(self):\n        return 'h'\n\nprint(A().g(), A().h())")
		if !strings.Contains(d, "\ng h\n") {
			t.Fatalf("a class, then a call: %q", d)
		}
		// A block that ends the data runs, as at a file's end: the
		// editor's auto-indented next line gets the Enter that ends it.
		if d := send("for i in range(2):\n    print(i * 5)"); !strings.Contains(d, "\n0\n5\n") || !strings.HasSuffix(d, ">>> ") {
			t.Fatalf("a loop sent whole: %q", d)
		}
		// A block typed a line a send stays open, and says so at the
		// editor's indented continuation prompt.
		res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "if True:"})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Continuation || !strings.HasSuffix(res.Delta, "...     ") {
			t.Fatalf("an open block: continuation %v, %q", res.Continuation, res.Delta)
		}
		if d := send("print('in')"); !strings.HasSuffix(d, "\n...     ") {
			t.Fatalf("a line typed into the open block: %q", d)
		}
		if d := send(""); !strings.Contains(d, "\nin\n") || !strings.HasSuffix(d, ">>> ") {
			t.Fatalf("the block ended: %q", d)
		}
	})
}

// readlineREPL asks for bracketed paste as GNU readline does (gdb, bc,
// sqlite3): without hiding the cursor. It prints what each read returned.
const readlineREPL = `
import os, termios
a = termios.tcgetattr(0); a[3] &= ~(termios.ICANON | termios.ECHO); termios.tcsetattr(0, termios.TCSANOW, a)
os.write(1, b"\x1b[?2004h> ")
while True:
    os.write(1, (repr(os.read(0, 4096)) + "\r\n\x1b[?2004h> ").encode())
`

// TestBlockTypedWhereNoPasteWasAskedFor: a block sent to a shell at its
// prompt (whose line editor asked for bracketed paste), to a program
// that did not ask, and to one that reads as readline does goes as
// typed, byte for byte.
func TestBlockTypedWhereNoPasteWasAskedFor(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		waitPrompt(t, s, owner, r.SessionID)
		res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "for i in 1 2; do\n  echo i=$i\ndone"})
		if err != nil {
			t.Fatal(err)
		}
		if res.WaitReason != core.WaitPrompt || strings.Count(res.Delta, "echo i=$i") != 1 || !strings.Contains(res.Delta, "\ni=1\ni=2\n") {
			t.Fatalf("a block to bash at its prompt settled %s: %q", res.WaitReason, res.Delta)
		}
		if _, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "stty -echo; cat -v"}); err != nil {
			t.Fatal(err)
		}
		res, err = s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "one\n  two\n"})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(res.Delta, "^[") || !strings.Contains(res.Delta, "one\n  two\n") {
			t.Fatalf("a block to cat -v: %q", res.Delta)
		}

		rl := mustOpen(t, s, owner, OpenRequest{Command: JoinCommand([]string{"python3", "-c", readlineREPL})})
		waitTailSuffixFrom(t, s, owner, rl.SessionID, rl.InitialOutput, "> ")
		res, err = s.Send(testCtx(t), owner, rl.SessionID, SendRequest{Data: "if x:\n  y\n\n", QuietWindow: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(res.Delta, "200~") || !strings.Contains(res.Delta, `b'if x:\n  y\n`) {
			t.Fatalf("a block to a readline program: %q", res.Delta)
		}
	})
}

// raised matches the line of an exception Python's console reports.
var raised = regexp.MustCompile(`(?m)^\w*Error: `)

// TestBlankLinesInsideABlockReachPythonsREPLAsOne: Python's interactive
// console ends a block at a blank line, and only there, so code written
// as a file is (a blank line between two statements of a body, between
// two methods; a statement right after a block) ran half and answered
// IndentationError or SyntaxError for the rest. Typed to the REPL's
// prompt, it goes without the blank lines inside a block and with one
// where a block ends.
func TestBlankLinesInsideABlockReachPythonsREPLAsOne(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "python3 -q"})
		waitTailSuffixFrom(t, s, owner, r.SessionID, r.InitialOutput, ">>> ")
		for _, c := range []struct{ data, want string }{
			{"def f(x):\n    y = x * 2\n\n    return y + 1\n\nprint(f(20))", "\n41\n"},
			{"class A:\n    def m(self):\n        return 1\n\n    def n(self):\n        return 2\n\nprint(A().n() + A().m())", "\n3\n"},
			{"try:\n    1/0\n\nexcept ZeroDivisionError:\n    print('div' + 'ided')\n\nfinally:\n    print('done')\n", "\ndivided\ndone\n"},
			{"for i in range(2):\n    print(i * 10)\nprint('lo' + 'op done')", "\nloop done\n"},
			{"def g():\n    return 5\ng() + 1", "\n6\n"},
			// A block that ends the data runs, as at a file's end.
			{"for i in range(3):\n    print(i * 7)", "\n14\n"},
		} {
			res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: c.data})
			if err != nil {
				t.Fatal(err)
			}
			if raised.MatchString(res.Delta) || !strings.Contains(res.Delta, c.want) || !strings.HasSuffix(res.Delta, ">>> ") {
				t.Fatalf("%q settled %s: %q", c.data, res.WaitReason, res.Delta)
			}
		}
		// Typed a line a send, a block stays open at "... " until the
		// empty line that ends it.
		for _, c := range []struct{ data, want string }{
			{"def h():", "... "}, {"    x = 9", "... "}, {"    return x", "... "}, {"", ">>> "}, {"h()", "\n9\n>>> "},
		} {
			res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: c.data})
			if err != nil {
				t.Fatal(err)
			}
			if raised.MatchString(res.Delta) || !strings.HasSuffix(res.Delta, c.want) {
				t.Fatalf("%q settled %s: %q, want it to end with %q", c.data, res.WaitReason, res.Delta, c.want)
			}
		}
	})
}
