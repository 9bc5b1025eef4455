package remote_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// wantLost checks an error of a call that the lost stream failed: it
// keeps its code, matches remote.ErrConnectionLost and says what to do
// next (close, and start over on a new connection once the host is
// reachable).
func wantLost(t *testing.T, what string, err error, code core.Code, next ...string) {
	t.Helper()
	if core.CodeOf(err) != code || !errors.Is(err, remote.ErrConnectionLost) {
		t.Errorf("%s: %v, want %s matching remote.ErrConnectionLost", what, err, code)
		return
	}
	for _, n := range next {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("%s: %q does not say what to do next (%q)", what, err, n)
		}
	}
}

// Once the stream to the agent is lost, a session's write, signal and
// resize fail with SESSION_EXITED, and a spawn on that connection with
// SPAWN_FAILED, each saying what to do next.
func TestLostConnectionSaysWhatNext(t *testing.T) {
	c, a := connectPipe(t)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	s, err := c.Spawn(ctx, remote.AgentExec, core.BackendRequest{Command: []string{"cat"}, Size: core.DefaultSize})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, s) }()
	_ = a.stream.Close() // no goodbye
	<-s.Exited()

	session := []string{"close the session", "once the host is reachable"}
	_, err = s.Write(ctx, []byte("x"))
	wantLost(t, "write", err, core.CodeSessionExited, session...)
	_, err = s.Signal(ctx, core.SignalRequest{Signal: core.SIGINT})
	wantLost(t, "signal", err, core.CodeSessionExited, session...)
	err = s.Resize(ctx, core.Size{Rows: 30, Cols: 100})
	wantLost(t, "resize", err, core.CodeSessionExited, session...)
	_, err = c.Spawn(ctx, remote.AgentExec, core.BackendRequest{Command: []string{"cat"}, Size: core.DefaultSize})
	wantLost(t, "spawn", err, core.CodeSpawnFailed, "spawn the session on a new connection", "once the host is reachable")
	if err := s.Close(ctx); err != nil {
		t.Fatalf("Close of a lost session: %v", err)
	}
}
