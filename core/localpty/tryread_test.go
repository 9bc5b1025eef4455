package localpty

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// TryRead returns 0 at once from a terminal that holds nothing, and Reads
// mixed with TryReads that gather what the terminal holds return the
// program's whole output, in order, then the end of output.
func TestTryReadGathersWithoutWaiting(t *testing.T) {
	need(t, "sh", "head", "tr")
	b := NewExec(ExecOptions{Options: shortOpts(false)})
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	marker := testMarker(t)
	// Quiet until a line arrives, then 64 KiB of a repeated pattern.
	bs, err := b.Spawn(ctx, core.BackendRequest{Marker: marker, Command: []string{"sh", "-c",
		"stty -echo; echo ready; read x; head -c 65536 /dev/zero | tr '\\0' 'q'"}})
	if err != nil {
		t.Fatal(err)
	}
	s := bs.(*session)
	defer func() {
		mustf(t, s.Close(context.Background()), "close")
		assertNoSurvivors(t, marker)
	}()
	var out []byte
	buf := make([]byte, 32<<10)
	for !bytes.Contains(out, []byte("ready\r\n")) {
		n, err := s.Read(buf)
		mustf(t, err, "read")
		out = append(out, buf[:n]...)
	}
	done := make(chan struct{})
	var n int
	go func() {
		defer close(done)
		n, err = s.TryRead(buf)
	}()
	select {
	case <-done:
	case <-time.After(waitLimit):
		t.Fatal("TryRead waited on a terminal that holds nothing")
	}
	if n != 0 || err != nil {
		t.Fatalf("TryRead on a quiet terminal = %d, %v; want 0, nil", n, err)
	}
	if _, err := s.Write(ctx, []byte("go\n")); err != nil {
		t.Fatal(err)
	}
	out = out[:0]
	gathered := 0
	for {
		n, err := s.Read(buf)
		for err == nil && n < len(buf) {
			m, terr := s.TryRead(buf[n:])
			mustf(t, terr, "TryRead")
			if m == 0 {
				break
			}
			n += m
			gathered += m
		}
		out = append(out, buf[:n]...)
		if err == io.EOF {
			break
		}
		mustf(t, err, "read")
	}
	if want := bytes.Repeat([]byte("q"), 65536); !bytes.Equal(out, want) {
		t.Fatalf("read %d bytes (%q...), want 65536 q", len(out), out[:min(len(out), 40)])
	}
	t.Logf("TryRead gathered %d of 65536 bytes", gathered)
	// After the exit, TryRead leaves the drain to Read.
	if n, err := s.TryRead(buf); n != 0 || err != nil {
		t.Fatalf("TryRead after the end of output = %d, %v; want 0, nil", n, err)
	}
}
