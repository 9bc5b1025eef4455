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

// TestControlKeyCrossesTheWire: the agent tells the host the terminal's
// key for a signal and that its program reads the terminal raw, so the
// host types Ctrl-C to such a program, as on a local terminal.
func TestControlKeyCrossesTheWire(t *testing.T) {
	s, _ := spawnPrinting(t, core.BackendRequest{Command: []string{"sh", "-c", "stty -isig quit ^X; echo ready; sleep 60"}}, "ready")
	p := core.ProberOf(s)
	for sig, want := range map[core.Signal]core.ControlKey{
		core.SIGINT:  {Char: 0x03, Raw: true},
		core.SIGQUIT: {Char: 0x18, Raw: true},
	} {
		if k, err := p.ControlChar(sig); err != nil || k != want {
			t.Errorf("%s: %+v %v, want %+v", sig, k, err, want)
		}
	}
}
