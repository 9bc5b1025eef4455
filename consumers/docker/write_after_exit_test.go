package docker

import (
	"context"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/testharness"
)

// Input written once the program exited and the engine ended its attach
// stream fails with the typed SESSION_EXITED error saying what to do
// next, never the stream's own error (which the service reports as
// INTERNAL). A write that the engine's socket refuses before the relay
// saw the stream end waits for it (internal/relay's
// TestWriteFailedWaitsForTheEnd). While the stream is open the engine
// takes input after the exit: a write then succeeds, as on a local
// terminal.
func TestWriteAfterExitRelay(t *testing.T) {
	b, d := newBackend(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s := spawnDrained(t, ctx, b, core.BackendRequest{Command: []string{"sh", "-c", "exit 3"}, Size: core.DefaultSize,
		Marker: "write-after-exit", Options: &Target{Image: d.Image}})
	select {
	case <-s.relay.OutputDone():
	case <-ctx.Done():
		t.Fatal("the attach stream did not end after the program exited")
	}
	_, err := s.Write(ctx, []byte("after the exit\n"))
	testharness.WantEndedWrite(t, ctx, s, err, "docker", 3)
}
