package remote_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"sync"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// recordingStream records the host's writes to the agent.
type recordingStream struct {
	io.ReadWriteCloser
	mu     sync.Mutex
	writes [][]byte
}

func (r *recordingStream) Write(p []byte) (int, error) {
	r.mu.Lock()
	r.writes = append(r.writes, bytes.Clone(p))
	r.mu.Unlock()
	return r.ReadWriteCloser.Write(p)
}

// Every data frame the host sends (a call, a session's input) goes to the
// stream in one write with its header: over ssh one write is one packet.
func TestHostWritesEachFrameWhole(t *testing.T) {
	a := startAgent(t)
	rec := &recordingStream{ReadWriteCloser: a.stream}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c, err := remote.Connect(ctx, rec)
	if err != nil {
		t.Fatalf("Connect: %v (agent stderr: %s)", err, a.stderr.String())
	}
	s, err := c.Spawn(ctx, remote.AgentExec, core.BackendRequest{Command: []string{"head", "-c", "6"}})
	if err != nil {
		t.Fatalf("Spawn: %v", err)
	}
	if _, err := s.Write(ctx, []byte("hello\n")); err != nil {
		t.Fatalf("Write: %v", err)
	}
	out, _ := io.ReadAll(readerFunc(s.Read))
	if !bytes.Contains(out, []byte("hello")) {
		t.Fatalf("output %q", out)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
	if err := a.wait(t); err != nil {
		t.Errorf("agent exit: %v; stderr: %s", err, a.stderr.String())
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	whole := 0
	for _, w := range rec.writes {
		if len(w) < 12 || w[0] != 0 || w[1] != 0 {
			continue // the hello line, other frame types
		}
		body := binary.BigEndian.Uint32(w[8:12])
		if len(w) == 12 && body > 0 {
			t.Fatalf("a data frame's header (%d bytes of body announced) was written alone; writes: %q", body, rec.writes)
		}
		if body > 0 && len(w) == 12+int(body) {
			whole++
		}
	}
	if whole == 0 {
		t.Fatalf("no data frame seen in %q", rec.writes)
	}
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }
