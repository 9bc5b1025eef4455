package ssh

import (
	"bytes"
	"context"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/testharness"
)

// callAfterCloseAttempts bounds the sessions a call-after-close test
// runs: the race it looks for (the server's close arrived, the request
// loop has not taken the exit report queued ahead of it) is narrow, and
// each attempt's first failed call may or may not land in it. Every
// attempt must pass; more attempts only make a regression likelier to
// show.
const callAfterCloseAttempts = 8

// A window change sent right after the program's channel closed fails
// with the typed SESSION_EXITED error that says what to do next, never
// the transport's "ssh window change: EOF" (which the service reports as
// INTERNAL): each attempt resizes until a resize fails.
func TestSSHDResizeAfterChannelClosed(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	b := newBackend(nil)
	tg := sshdTarget(t, srv, Auth{Password: srv.Password})
	for i := range callAfterCloseAttempts {
		s := spawn(t, b, tg, core.BackendRequest{Command: []string{"sh", "-c", "exit 3"}})
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		var err error
		calls := 0
		for err == nil {
			err = s.Resize(ctx, core.Size{Rows: 24 + uint16(calls%2), Cols: 80})
			calls++
		}
		if ctx.Err() != nil {
			t.Fatalf("attempt %d: no resize failed within %v (%d resizes): %v", i, waitLimit, calls, err)
		}
		testharness.WantEnded(t, ctx, s, err, "ssh window change", 3)
		cancel()
		closeSession(t, s)
	}
}

// A signal request sent right after the program exited fails with the
// typed SESSION_EXITED error that says what to do next: never the
// transport's "ssh signal: EOF" once the channel closed, nor UNSUPPORTED
// for the server's refusal of a program that has just exited (OpenSSH's
// "no pid for session", whose exit report came just before). The program
// ignores the signal (it says "ready" once it does) and exits with its
// own code. Each attempt signals until a signal fails.
func TestSSHDSignalAfterChannelClosed(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	b := newBackend(nil)
	tg := sshdTarget(t, srv, Auth{Password: srv.Password})
	for i := range callAfterCloseAttempts {
		s := spawn(t, b, tg, core.BackendRequest{Command: []string{"sh", "-c", `trap "" USR1; echo ready; exit 3`}})
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		readUntil(t, s, "ready")
		var err error
		calls := 0
		for err == nil {
			_, err = s.Signal(ctx, core.SignalRequest{Signal: core.Signal("SIGUSR1")})
			calls++
		}
		if ctx.Err() != nil {
			t.Fatalf("attempt %d: no signal failed within %v (%d signals): %v", i, waitLimit, calls, err)
		}
		t.Logf("attempt %d: signal %d failed: %v", i, calls, err)
		testharness.WantEnded(t, ctx, s, err, "ssh signal", 3)
		cancel()
		closeSession(t, s)
	}
}

// readUntil reads s's output until it holds want; the program's exit
// (io.EOF, or another error) before that fails the test.
func readUntil(t *testing.T, s core.BackendSession, want string) {
	t.Helper()
	var out []byte
	buf := make([]byte, 4096)
	for !bytes.Contains(out, []byte(want)) {
		n, err := s.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			t.Fatalf("output %q ended before %q: %v", out, want, err)
		}
	}
}
