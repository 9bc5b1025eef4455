package localpty

import (
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// EchoOff follows the program's termios: echo on by default, off while a
// password prompt (stty -echo, canonical mode) reads.
func TestEchoOffFollowsTheTermios(t *testing.T) {
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{
		Command: []string{"sh", "-c", "echo READY; read a; stty -echo; echo QUIET; exec sleep 100"},
	})
	tm.waitFor("READY")
	r, ok := any(tm.s).(core.EchoReporter)
	if !ok {
		t.Fatal("the session reports no echo state")
	}
	if off, known := r.EchoOff(); !known || off {
		t.Fatalf("echo off %v (known %v) at start, want on", off, known)
	}
	tm.send("go\r")
	tm.waitFor("QUIET")
	if off, known := r.EchoOff(); !known || !off {
		t.Fatalf("echo off %v (known %v) after stty -echo, want off", off, known)
	}
}
