package localpty

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// autoindentEditor is a full-screen editor in the shape of vim or nano
// in insert mode with autoindent: on the alternate screen, in raw mode,
// it asks for bracketed paste; an Enter typed starts the next line with
// the indentation of the one before, a line break inside a paste does
// not. Ctrl-D writes the text to its file and quits.
const autoindentEditor = `import os, sys, termios, tty
old = termios.tcgetattr(0)
tty.setraw(0)
os.write(1, b"\x1b[?1049h\x1b[?2004h\x1b[H\x1b[2J")
lines, pasting, pending, pastes = [""], False, b"", 0
try:
    while True:
        pending += os.read(0, 4096)
        while pending:
            if pending.startswith(b"\x1b[200~") or pending.startswith(b"\x1b[201~"):
                pasting, pending = pending[4:5] == b"0", pending[6:]
                pastes += pasting
                continue
            if pending[:1] == b"\x1b" and len(pending) < 6:
                break
            c, pending = pending[:1], pending[1:]
            if c == b"\x04":
                raise SystemExit
            if c in (b"\r", b"\n"):
                last = lines[-1]
                indent = "" if pasting else last[:len(last) - len(last.lstrip(" "))]
                lines.append(indent)
                os.write(1, ("\r\n" + indent).encode())
            else:
                lines[-1] += c.decode("latin-1")
                os.write(1, c)
finally:
    open(sys.argv[1], "w").write("\n".join(lines))
    open(sys.argv[1] + ".pastes", "w").write(str(pastes))
    termios.tcsetattr(0, termios.TCSADRAIN, old)
    os.write(1, b"\x1b[?2004l\x1b[?1049l")
`

// A block sent to a full-screen editor that asked for bracketed paste
// (vim, nano) goes as one paste, as a terminal pastes it: typed line by
// line, each Enter would take the indentation of the line before and the
// block's own indentation would come on top (a Python function saved as
// a staircase). The send's Enter follows the paste, typed. A send without
// Enter (NoSubmit) is written as it is, markers and all left out.
func TestBlockSentToAnEditorIsPasted(t *testing.T) {
	need(t, "python3")
	dir := t.TempDir()
	script := filepath.Join(dir, "editor.py")
	mustf(t, os.WriteFile(script, []byte(autoindentEditor), 0o600), "write the script")
	const block = "def f(x):\n    if x:\n        return 1\n    return 2\n\nprint(f(0))"
	svc, owner, info := shellService(t, core.SpawnRequest{})
	for _, submit := range []bool{true, false} {
		file := filepath.Join(dir, "out.py")
		res := sendWait(t, svc, owner, info.ID, "python3 "+script+" "+file)
		if res.WaitReason != core.WaitStdinRead {
			t.Fatalf("start: settled as %s with %q", res.WaitReason, res.Delta)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
		sendRequest(ctx, t, svc, owner, info.ID, core.SendRequest{Data: block, NoSubmit: !submit, QuietWindow: waitLimit, Timeout: 2 * waitLimit})
		cancel()
		if res := sendWait(t, svc, owner, info.ID, "\x04"); res.WaitReason != core.WaitPrompt {
			t.Fatalf("quit: settled as %s with %q", res.WaitReason, res.Delta)
		}
		got, err := os.ReadFile(file)
		mustf(t, err, "read the saved file")
		pastes, err := os.ReadFile(file + ".pastes")
		mustf(t, err, "read the paste count")
		switch {
		case submit && (string(got) != block+"\n" || string(pastes) != "1"):
			t.Errorf("the editor saved\n%q\nfrom %s pastes, want\n%q\nfrom one (the block, then the send's Enter)", got, pastes, block+"\n")
		case !submit && string(pastes) != "0":
			t.Errorf("a send without Enter reached the editor in %s pastes, want it typed as it is", pastes)
		}
	}
}
