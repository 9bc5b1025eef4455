package remote_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"strconv"
	"sync"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// recordingReader keeps what the host reads from the agent.
type recordingReader struct {
	io.ReadWriteCloser
	mu   sync.Mutex
	read bytes.Buffer
}

func (r *recordingReader) Read(p []byte) (int, error) {
	n, err := r.ReadWriteCloser.Read(p)
	r.mu.Lock()
	r.read.Write(p[:n])
	r.mu.Unlock()
	return n, err
}

// largestDataFrame parses the yamux frames after the hello line and
// returns the largest data frame's body length.
func largestDataFrame(t *testing.T, b []byte) int {
	t.Helper()
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		t.Fatalf("no hello line in %q", b)
	}
	b = b[i+1:]
	largest := 0
	for len(b) >= 12 {
		typ, n := b[1], int(binary.BigEndian.Uint32(b[8:12]))
		b = b[12:]
		if typ != 0 { // window update, ping, go away: no body
			continue
		}
		if n > len(b) {
			break // the stream ended inside a frame
		}
		largest = max(largest, n)
		b = b[n:]
	}
	return largest
}

// The agent gathers what a flooding terminal already holds into frames
// larger than one read of the terminal (at most 4 KiB on Linux), so that
// a flood costs fewer writes, ssh packets and wake-ups per byte.
func TestAgentGathersFloodIntoLargeFrames(t *testing.T) {
	a := startAgent(t)
	rec := &recordingReader{ReadWriteCloser: a.stream}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c, err := remote.Connect(ctx, rec)
	if err != nil {
		t.Fatalf("Connect: %v (agent stderr: %s)", err, a.stderr.String())
	}
	const size = 4 << 20
	s, err := c.Spawn(ctx, remote.AgentExec, core.BackendRequest{Command: []string{"sh", "-c", "yes 0123456789012345678901234567890123456789 | head -c " + strconv.Itoa(size)}})
	if err != nil {
		t.Fatalf("Spawn: %v", err)
	}
	n, err := io.Copy(io.Discard, readerFunc(s.Read))
	if err != nil || n < size {
		t.Fatalf("read %d bytes, %v", n, err)
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
	if got := largestDataFrame(t, rec.read.Bytes()); got <= 4096 {
		t.Fatalf("the largest output frame of a %d-byte flood holds %d bytes: one terminal read each", size, got)
	}
}
