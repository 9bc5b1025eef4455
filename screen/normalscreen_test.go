package screen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/ptytools"
)

// topLike draws like top: it clears the normal screen and writes every row
// at its number, padded with blanks, without the alternate screen; each
// key redraws the whole screen, with only the first row changed; q quits.
const topLike = `import os, termios, tty
fd = 0
old = termios.tcgetattr(fd)
tty.setcbreak(fd)
def draw(n):
    out = "\x1b[H\x1b[2J"
    for r in range(1, 25):
        text = "top-like tick %d" % n if r == 1 else "process row %d" % r
        out += "\x1b[%d;1H%s" % (r, text.ljust(79))
    os.write(1, out.encode())
n = 0
draw(n)
try:
    while True:
        c = os.read(fd, 1)
        if c in (b"q", b""):
            break
        n += 1
        draw(n)
finally:
    termios.tcsetattr(fd, termios.TCSADRAIN, old)
    os.write(1, b"\x1b[H\x1b[2J")
`

// A program that draws on the normal screen (top) is a full-screen program
// too: pty_open returns its screen, not kilobytes of padded cells; that
// screen counts as a look, so pty_keys with changedOnly returns the one
// row a key changed; once it quits, sends return output again.
func TestNormalScreenFullScreenProgram(t *testing.T) {
	e := newEnv(t, Options{})
	d := facadeDispatcher(t, e)
	script := filepath.Join(t.TempDir(), "toplike.py")
	if err := os.WriteFile(script, []byte(topLike), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := call(t, d, e.owner, ptytools.ToolOpen, map[string]any{"command": "python3 " + script, "cols": 80, "rows": 24, "quietMs": 20000}) // settles on its read, however slow python starts
	if err != nil {
		t.Fatal(err)
	}
	or, ok := res.Structured.(OpenResult)
	if !ok || or.Screen == nil || or.Screen.AltScreen || or.InitialOutput != "" {
		t.Fatalf("open of a program drawing on the normal screen: %#v\n%s", res.Structured, res.Text)
	}
	if !strings.Contains(res.Text, "top-like tick 0") || strings.Contains(res.Text, "    \n") || len(res.Text) > 1200 {
		t.Fatalf("open's text, %d bytes:\n%s", len(res.Text), res.Text)
	}
	id := or.SessionID

	res, err = call(t, d, e.owner, ToolKeys, map[string]any{"id": id, "text": "x", "changedOnly": true})
	if err != nil {
		t.Fatal(err)
	}
	kr := res.Structured.(KeysToolResult)
	if len(kr.Screen.Rows) != 1 || kr.Screen.Rows[0] != "top-like tick 1" {
		t.Fatalf("keys with changedOnly after the open: rows %q\n%s", kr.Screen.Rows, res.Text)
	}

	if _, err := call(t, d, e.owner, ToolKeys, map[string]any{"id": id, "text": "q"}); err != nil {
		t.Fatal(err)
	}
	res, err = call(t, d, e.owner, ptytools.ToolSend, map[string]any{"id": id, "data": "echo back-at-the-prompt"})
	if err != nil {
		t.Fatal(err)
	}
	if sr, ok := res.Structured.(ptysession.SendResult); !ok || !strings.Contains(sr.Delta, "back-at-the-prompt") {
		t.Fatalf("a send after the program quit: %#v\n%s", res.Structured, res.Text)
	}
}

// topLeaves is topLike leaving its last frame as top does: it moves to
// the last row and ends the line, so the screen scrolls by one and the
// shell's prompt follows.
var topLeaves = strings.Replace(topLike, `os.write(1, b"\x1b[H\x1b[2J")`, `os.write(1, b"\x1b[24;1H\r\n")`, 1)

// Quitting a program that drew on the normal screen returns what is new
// since the last look (the shell's prompt), not its last frame again,
// scrolled by one row (top's q returned 3,649 bytes in a trial).
func TestLeavingANormalScreenProgram(t *testing.T) {
	e := newEnv(t, Options{})
	d := facadeDispatcher(t, e)
	script := filepath.Join(t.TempDir(), "topleaves.py")
	if err := os.WriteFile(script, []byte(topLeaves), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := call(t, d, e.owner, ptytools.ToolOpen, map[string]any{"command": "python3 " + script, "cols": 80, "rows": 24, "quietMs": 20000})
	if err != nil {
		t.Fatal(err)
	}
	or, ok := res.Structured.(OpenResult)
	if !ok || or.Screen == nil {
		t.Fatalf("open: %#v\n%s", res.Structured, res.Text)
	}
	if _, err := call(t, d, e.owner, ToolKeys, map[string]any{"id": or.SessionID, "text": "x"}); err != nil {
		t.Fatal(err)
	}
	res, err = call(t, d, e.owner, ToolKeys, map[string]any{"id": or.SessionID, "text": "q"})
	if err != nil {
		t.Fatal(err)
	}
	kr := res.Structured.(KeysToolResult)
	if kr.WaitReason != "prompt" || !kr.LeftFullScreen || len(kr.Screen.Rows) > 2 || len(res.Text) > 400 {
		t.Fatalf("q: %s, left %v, %d rows, %d bytes:\n%s", kr.WaitReason, kr.LeftFullScreen, len(kr.Screen.Rows), len(res.Text), res.Text)
	}
	if last := kr.Screen.Rows[len(kr.Screen.Rows)-1]; !strings.HasSuffix(last, "# ") && !strings.HasSuffix(last, "$ ") && !strings.HasSuffix(last, "#") && !strings.HasSuffix(last, "$") {
		t.Fatalf("the prompt is not the last row: %q", kr.Screen.Rows)
	}
}
