package localpty

import (
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// EchoMode follows the program's termios: echo on by default, a hidden
// line while a password prompt (stty -echo, canonical mode) reads, the
// program's own echo in raw mode.
func TestEchoModeFollowsTheTermios(t *testing.T) {
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{
		Command: []string{"sh", "-c", "echo READY; read a; stty -echo; echo QUIET; read a; stty raw; echo RAW; exec sleep 100"},
	})
	tm.waitFor("READY")
	r, ok := any(tm.s).(core.Prober)
	if !ok {
		t.Fatal("the session reports no echo state")
	}
	if m, err := r.EchoMode(); err != nil || m != core.EchoOn {
		t.Fatalf("echo mode %v (%v) at start, want on", m, err)
	}
	tm.send("go\r")
	tm.waitFor("QUIET")
	if m, err := r.EchoMode(); err != nil || m != core.EchoHidden {
		t.Fatalf("echo mode %v (%v) after stty -echo, want hidden", m, err)
	}
	tm.send("go\r")
	tm.waitFor("RAW")
	if m, err := r.EchoMode(); err != nil || m != core.EchoByProgram {
		t.Fatalf("echo mode %v (%v) after stty raw, want by_program", m, err)
	}
}

// A send that settles on a read of a hidden line says so (InputHidden): a
// password prompt by a program, and by the shell's own read -s; a
// visible question does not.
func TestSendSaysTheReadHidesInput(t *testing.T) {
	need(t, "python3")
	svc, owner, info := shellService(t, core.SpawnRequest{})
	for _, c := range []struct {
		line   string
		hidden bool
	}{
		{`python3 -c 'import getpass; getpass.getpass("Password: ")'`, true},
		{"secret-answer", false}, // typed into getpass: back at the prompt
		{`read -r -p 'Name: ' name`, false},
		{"Ada", false},
		{`read -r -s -p 'Passphrase: ' pass`, true},
	} {
		res := sendWait(t, svc, owner, info.ID, c.line)
		if res.InputHidden != c.hidden {
			t.Fatalf("send %q settled %s with InputHidden %v, want %v (delta %q)", c.line, res.WaitReason, res.InputHidden, c.hidden, res.Delta)
		}
	}
}
