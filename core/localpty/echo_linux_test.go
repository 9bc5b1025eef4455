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
