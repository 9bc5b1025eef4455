package remote_test

import (
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// A signal every process of its group ignores comes back through the
// agent marked Ignored, as the local backend marks it; one they do not
// ignore does not.
func TestSignalIgnoredCrossesTheWire(t *testing.T) {
	s, ctx := spawnPrinting(t, core.BackendRequest{Command: []string{"sh", "-c", "trap '' INT; echo ready; sleep 60"}}, "ready")
	res, err := s.Signal(ctx, core.SignalRequest{Signal: core.SIGINT})
	if err != nil || !res.Delivered || !res.Ignored {
		t.Fatalf("SIGINT: %+v %v, want delivered and ignored", res, err)
	}
	res, err = s.Signal(ctx, core.SignalRequest{Signal: core.SIGTERM})
	if err != nil || !res.Delivered || res.Ignored {
		t.Fatalf("SIGTERM: %+v %v, want delivered, not ignored", res, err)
	}
}
