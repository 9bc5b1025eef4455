package remote_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// A signal every process of its group ignores comes back through the
// agent marked Ignored, as the local backend marks it; one they do not
// ignore does not.
func TestSignalIgnoredCrossesTheWire(t *testing.T) {
	c, _ := connectPipe(t)
	b := c.Backend("exec", remote.AgentExec)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	s, err := b.Spawn(ctx, core.BackendRequest{Command: []string{"sh", "-c", "trap '' INT; echo ready; sleep 60"}, Size: core.DefaultSize})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	var out []byte
	buf := make([]byte, 4096)
	for !bytes.Contains(out, []byte("ready")) {
		n, err := s.Read(buf)
		if err != nil {
			t.Fatalf("read %q: %v", out, err)
		}
		out = append(out, buf[:n]...)
	}
	res, err := s.Signal(ctx, core.SignalRequest{Signal: core.SIGINT})
	if err != nil || !res.Delivered || !res.Ignored {
		t.Fatalf("SIGINT: %+v %v, want delivered and ignored", res, err)
	}
	res, err = s.Signal(ctx, core.SignalRequest{Signal: core.SIGTERM})
	if err != nil || !res.Delivered || res.Ignored {
		t.Fatalf("SIGTERM: %+v %v, want delivered, not ignored", res, err)
	}
}
