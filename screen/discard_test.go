package screen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// flushScript reads one key at a time in raw mode and, like top opening a
// prompt, discards the input it has not read (tcflush TCIFLUSH) after each
// key; it prints every key it got. q quits.
const flushScript = `import os, sys, termios, tty
tty.setraw(0)
got = ""
os.write(1, b"ready> ")
while True:
    c = os.read(0, 1).decode()
    if c == "q":
        break
    got += c
    termios.tcflush(0, termios.TCIFLUSH)
    os.write(1, ("\r\ngot [%s]\r\nready> " % got).encode())
`

// flusher starts flushScript and waits for its first prompt.
func (e *env) flusher() core.SessionID {
	e.t.Helper()
	script := filepath.Join(e.t.TempDir(), "flush.py")
	if err := os.WriteFile(script, []byte(flushScript), 0o644); err != nil {
		e.t.Fatal(err)
	}
	id := e.spawn(size24x80, python(e.t), script)
	e.waitFor(id, "the first prompt", func(s Snapshot) bool { return rowHas(s, 0, "ready>") })
	return id
}

// TestKeysDiscardedByFlush types three keys at once into a program that
// reads one and flushes the rest: the result counts the two it threw away.
func TestKeysDiscardedByFlush(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counting reads needs Linux /proc")
	}
	e := newEnv(t, Options{})
	id := e.flusher()
	r := e.keys(id, "abc")
	if r.Discarded != 2 {
		t.Fatalf("discarded %d bytes, want 2 (b and c)\n%s", r.Discarded, r.Screen.Text())
	}
	if !anyRowHas(r.Screen, "got [a]") || anyRowHas(r.Screen, "got [ab") {
		t.Fatalf("the program should have got only a:\n%s", r.Screen.Text())
	}
	// One key at a time, nothing is thrown away.
	r = e.keys(id, "d")
	if r.Discarded != 0 {
		t.Fatalf("a single key: discarded %d", r.Discarded)
	}
}

// TestKeysPaced types the same keys paced: each is written once the
// program read the one before, so all arrive and none is discarded.
func TestKeysPaced(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.flusher()
	r, err := e.m.SendKeys(ctxT(t), e.owner, id, KeysRequest{Text: "ab", Keys: []string{"c", "Space"}, Paced: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Discarded != 0 {
		t.Errorf("paced: discarded %d", r.Discarded)
	}
	if r.Send.WaitReason != core.WaitStdinRead {
		t.Errorf("paced keys settled as %s, want stdin_read", r.Send.WaitReason)
	}
	e.waitFor(id, "all four keys", func(s Snapshot) bool { return anyRowHas(s, "got [abc ]") })
}

// Paced keys past MaxPacedKeys are refused before anything is typed: each
// would be a send of its own.
func TestKeysPacedAreBounded(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.flusher()
	_, err := e.m.SendKeys(ctxT(t), e.owner, id, KeysRequest{Text: strings.Repeat("x", MaxPacedKeys), Keys: []string{"Enter"}, Paced: true})
	if core.CodeOf(err) != core.CodeInvalidArgument || !strings.Contains(err.Error(), "paced") {
		t.Fatalf("%d paced keys: %v", MaxPacedKeys+1, err)
	}
}

// TestKeysToolDiscarded: pty_keys reports discarded keys in its result and
// its text, takes paced, and leaves the field out when nothing was lost.
func TestKeysToolDiscarded(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counting reads needs Linux /proc")
	}
	e := newEnv(t, Options{})
	d := newDispatcher(t, e.m)
	id := e.flusher()
	res, err := call(t, d, e.owner, ToolKeys, map[string]any{"id": id, "text": "xyz"})
	if err != nil {
		t.Fatal(err)
	}
	if kr := res.Structured.(KeysToolResult); kr.Discarded != 2 {
		t.Fatalf("discarded %d, want 2", kr.Discarded)
	}
	if !strings.Contains(res.Text, "discarded 2 bytes") || !strings.Contains(res.Text, "paced") {
		t.Fatalf("text:\n%s", res.Text)
	}
	res, err = call(t, d, e.owner, ToolKeys, map[string]any{"id": id, "text": "yz", "paced": true})
	if err != nil {
		t.Fatal(err)
	}
	j, _ := json.Marshal(res.Structured)
	if strings.Contains(string(j), "discarded") || strings.Contains(res.Text, "discarded") {
		t.Fatalf("paced keys reported a discard: %s\n%s", j, res.Text)
	}
	e.waitFor(id, "all three keys", func(s Snapshot) bool { return anyRowHas(s, "got [xyz]") })
}

// cbreakScript reads keys in cbreak mode (ISIG on) and counts the
// SIGINTs a Ctrl-C sends it.
const cbreakScript = `import os, signal, tty
n = 0
def hit(*_):
    global n
    n += 1
    os.write(1, ("\r\ninterrupts %d\r\n" % n).encode())
signal.signal(signal.SIGINT, hit)
tty.setcbreak(0)
os.write(1, b"ready> ")
while True:
    try:
        c = os.read(0, 1)
    except InterruptedError:
        continue
    if c == b"q":
        break
`

// TestKeysCtrlCNotDiscarded: a Ctrl-C the terminal turns into SIGINT is
// never read, but it was not discarded either.
func TestKeysCtrlCNotDiscarded(t *testing.T) {
	e := newEnv(t, Options{})
	script := filepath.Join(t.TempDir(), "cbreak.py")
	if err := os.WriteFile(script, []byte(cbreakScript), 0o644); err != nil {
		t.Fatal(err)
	}
	id := e.spawn(size24x80, python(t), script)
	e.waitFor(id, "the prompt", func(s Snapshot) bool { return rowHas(s, 0, "ready>") })
	r := e.keys(id, "", "C-c")
	e.waitFor(id, "the interrupt", func(s Snapshot) bool { return anyRowHas(s, "interrupts 1") })
	if r.Discarded != 0 {
		t.Fatalf("a Ctrl-C that became SIGINT counted as %d discarded", r.Discarded)
	}
}
