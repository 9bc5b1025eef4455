package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// redrawingDialog is a password dialog that reads key by key without echo
// and, after each second without a key, redraws for a moment away from
// its read, as a curses dialog does.
const redrawingDialog = `import os, select, sys, termios, time
a = termios.tcgetattr(0)
a[3] &= ~(termios.ICANON | termios.ECHO)
termios.tcsetattr(0, termios.TCSANOW, a)
sys.stdout.write("Passphrase: "); sys.stdout.flush()
got = b""
while not got.endswith((b"\r", b"\n")):
    if select.select([0], [], [], 1)[0]:
        got += os.read(0, 1)
    else:
        sys.stdout.write("[redrawing]"); sys.stdout.flush()
        time.sleep(0.15)
print("\r\ngot %d characters" % (len(got) - 1))
`

// A password dialog caught between two reads (redrawing) still takes a
// secret: pty_secret looks again for a moment
// before it refuses.
func TestSecretIntoADialogBetweenItsReads(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// The dialog is known by its executable's name.
	bin, err := os.ReadFile(py)
	if err != nil {
		t.Fatal(err)
	}
	dialog := filepath.Join(dir, "pinentry")
	if err := os.WriteFile(dialog, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dialog.py"), []byte(redrawingDialog), 0o600); err != nil {
		t.Fatal(err)
	}
	cs, _ := connectEliciting(t, defaultConfig(t), func(string) string { return "s3cret-pass" })
	opened, _ := call(t, cs, "pty_open", map[string]any{"command": "bash", "cwd": dir})
	id, _ := opened["sessionId"].(string)
	sent, res := call(t, cs, "pty_send", map[string]any{"id": id, "data": "./pinentry dialog.py"})
	if sent["waitReason"] != "stdin_read" {
		t.Fatalf("the dialog: %s", resultText(res))
	}
	if _, res := call(t, cs, "pty_wait", map[string]any{"conditions": []map[string]any{{"kind": "output", "target": id, "pattern": `\[redrawing\]`}}, "timeoutMs": 10000}); res.IsError {
		t.Fatalf("the redraw: %s", resultText(res))
	}
	got, res := call(t, cs, "pty_secret", map[string]any{"id": id, "message": "a passphrase"})
	if res.IsError || got["outcome"] != "entered" {
		t.Fatalf("pty_secret while the dialog redraws: %s %v", resultText(res), got)
	}
	if _, res := call(t, cs, "pty_wait", map[string]any{"conditions": []map[string]any{{"kind": "output", "target": id, "pattern": "got 11 characters"}}, "timeoutMs": 10000}); res.IsError {
		t.Fatalf("the dialog's answer: %s", resultText(res))
	}
	if tail, res := call(t, cs, "pty_tail", map[string]any{"id": id}); strings.Contains(fmt.Sprint(tail), "s3cret-pass") {
		t.Fatalf("the secret shows: %s", resultText(res))
	}
}
