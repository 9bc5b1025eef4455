package record_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/core/record"
)

// maskedPrompt reads a line in raw mode (ECHO and ICANON off), printing
// '*' per key as sudo's pwfeedback and inquirer-style prompts do, and then
// the number of keys.
const maskedPrompt = `import os, sys, termios
fd = 0
old = termios.tcgetattr(fd)
new = termios.tcgetattr(fd)
new[3] &= ~(termios.ECHO | termios.ICANON)
termios.tcsetattr(fd, termios.TCSANOW, new)
n = 0
try:
    os.write(1, sys.argv[1].encode())
    while True:
        c = os.read(fd, 1)
        if c in (b"\r", b"\n", b""):
            break
        n += 1
        os.write(1, b"*")
finally:
    termios.tcsetattr(fd, termios.TCSANOW, old)
os.write(1, b"\ngot %d keys\n" % n)
`

// A secret typed into a raw-mode prompt that shows '*' per key is kept out
// of the recording, whether the prompt says what it asks for ("Password:")
// or not ("code> "), sent whole by the model or typed key by key; input
// the program shows (the shell's readline) is recorded.
func TestMaskedRawPromptInputIsNotRecorded(t *testing.T) {
	script := filepath.Join(t.TempDir(), "masked.py")
	if err := os.WriteFile(script, []byte(maskedPrompt), 0o600); err != nil {
		t.Fatal(err)
	}
	svc, rec := recorded(t, true)
	owner := core.NewOwner("model")
	s, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: localpty.TypeShell})
	if err != nil {
		t.Fatal(err)
	}
	secrets := []string{"Sent-Whole-Pw-Kqzv", "Sent-Whole-Code-Wjxh", "Typed-Pw-Zvqk", "Typed-Code-Xhjw"} // tails no timestamp or path holds
	for i, prompt := range []string{"Password: ", "code> ", "Password: ", "code> "} {
		// Silence never settles the prompt's send: on a loaded machine
		// python's start outlasts the quiet window.
		op, err := svc.Send(ctxT(t), owner, s.ID, core.SendRequest{Data: "python3 " + script + " '" + prompt + "'", Timeout: time.Minute, QuietWindow: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if res, err := op.Wait(ctxT(t)); err != nil || res.WaitReason != core.WaitStdinRead {
			t.Fatalf("prompt settled on %s: %q (%v)", res.WaitReason, res.Delta, err)
		}
		want := "got " + strconv.Itoa(len(secrets[i])) + " keys"
		if i < 2 {
			if res := send(t, svc, owner, s.ID, secrets[i]); !strings.Contains(res.Delta, want) {
				t.Fatalf("answer: %q", res.Delta)
			}
			continue
		}
		for _, k := range secrets[i] + "\r" {
			if _, err := svc.Write(ctxT(t), owner, s.ID, []byte(string(k))); err != nil {
				t.Fatal(err)
			}
			time.Sleep(30 * time.Millisecond) // a person's pace
		}
		if res := send(t, svc, owner, s.ID, "echo after-$((6*7))"); !strings.Contains(res.Delta, "after-42") {
			t.Fatalf("after: %q", res.Delta)
		}
	}
	path := rec.Path(s.ID)
	if _, err := svc.Close(ctxT(t), owner, s.ID, "test"); err != nil {
		t.Fatal(err)
	}
	rec.Close()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, sec := range secrets {
		if strings.Contains(string(raw), sec) || strings.Contains(string(raw), sec[len(sec)-4:]) {
			t.Fatalf("the secret %q reached the recording:\n%s", sec, raw)
		}
	}
	_, evs := readAll(t, path)
	hidden, shown := 0, 0
	for _, ev := range evs {
		if ev.Code != "i" {
			continue
		}
		switch {
		case ev.Data == record.HiddenInput:
			hidden++
		case ev.Data == "\r" || strings.HasPrefix(ev.Data, "python3 ") || strings.HasPrefix(ev.Data, "echo after-"):
			shown++
		default:
			t.Fatalf("input %q recorded: a key of a masked prompt", ev.Data)
		}
	}
	if want := 2 + len(secrets[2]) + len(secrets[3]); hidden != want {
		t.Fatalf("%d inputs recorded as hidden, want %d:\n%s", hidden, want, raw)
	}
	if shown != 4+2+2 {
		t.Fatalf("%d inputs recorded as typed, want the 6 commands and 2 Enters", shown)
	}
}
