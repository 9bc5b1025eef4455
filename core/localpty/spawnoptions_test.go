package localpty

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// TestNoControllingTerminal: by default the program's terminal is its
// controlling terminal (/dev/tty opens); with NoControllingTerminal it is
// not, and a process in a new session can make it its own (setsid -c does
// setsid and TIOCSCTTY, as gdb does for a program it runs on a terminal).
func TestNoControllingTerminal(t *testing.T) {
	const script = `if (exec </dev/tty) 2>/dev/null; then echo ctty=yes; else echo ctty=no; fi; ` +
		`setsid -c sh -c 'if : </dev/tty; then echo child=yes; else echo child=no; fi'`
	for _, tc := range []struct {
		opts any
		want string
	}{
		{nil, "ctty=yes\r\n"},
		{SpawnOptions{}, "ctty=yes\r\n"},
		{&SpawnOptions{NoControllingTerminal: true}, "ctty=no\r\nchild=yes\r\n"},
	} {
		tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{
			Command: []string{"sh", "-c", script},
			Options: tc.opts,
		})
		out := tm.waitEOF()
		if !bytes.HasPrefix(out, []byte(tc.want)) {
			t.Errorf("options %+v: output %q, want it to start with %q", tc.opts, out, tc.want)
		}
	}
}

func TestSpawnOptionsOfAnotherType(t *testing.T) {
	_, err := NewExec(ExecOptions{Options: shortOpts(false)}).Spawn(context.Background(), core.BackendRequest{
		Command: []string{"true"},
		Options: struct{}{},
	})
	var ce *core.Error
	if !errors.As(err, &ce) || ce.Code != core.CodeInvalidArgument {
		t.Fatalf("err %v, want CodeInvalidArgument", err)
	}
}
