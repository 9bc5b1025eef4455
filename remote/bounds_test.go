package remote_test

import (
	"context"
	"errors"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
	"github.com/ptyseam/ptyseam/testharness"
)

// TestAgentMaxSessions: an agent started with -max-sessions 2 refuses a
// third live session with TOO_MANY_SESSIONS, and takes one again once a
// session was closed.
func TestAgentMaxSessions(t *testing.T) {
	a := startAgent(t, "-max-sessions", "2")
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c, err := remote.Connect(ctx, a.stream)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = c.Close()
		_ = a.wait(t)
	})
	b := c.Backend("exec", remote.AgentExec)
	req := core.BackendRequest{Command: testharness.Child(t, "echo-repl"), Size: core.Size{Rows: 24, Cols: 80}, Marker: "remotetest-" + randomHex(8)}
	var open []core.BackendSession
	for range 2 {
		s, err := b.Spawn(ctx, req)
		if err != nil {
			t.Fatalf("Spawn: %v", err)
		}
		open = append(open, s)
	}
	_, err = b.Spawn(ctx, req)
	var ce *core.Error
	if !errors.As(err, &ce) || ce.Code != core.CodeTooManySessions {
		t.Fatalf("a third spawn: %v, want TOO_MANY_SESSIONS", err)
	}
	if err := open[0].Close(ctx); err != nil {
		t.Fatal(err)
	}
	s, err := b.Spawn(ctx, req)
	if err != nil {
		t.Fatalf("a spawn after a close: %v", err)
	}
	for _, s := range append(open[1:], s) {
		if err := s.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
}
