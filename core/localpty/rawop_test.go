package localpty

import (
	"context"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// A read of the terminal and a write that it takes at once allocate
// nothing: the read loop makes one read per chunk of output, and a send
// one write.
func TestReadAndTryWriteDoNotAllocate(t *testing.T) {
	need(t, "cat")
	req := core.BackendRequest{Command: []string{"cat"}, Marker: testMarker(t)}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	bs, err := NewExec(ExecOptions{Options: shortOpts(false)}).Spawn(ctx, req)
	mustf(t, err, "spawn")
	s := bs.(*session)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		if err := s.Close(ctx); err != nil {
			t.Errorf("close: %v", err)
		}
		assertNoSurvivors(t, req.Marker)
	})
	in, buf := []byte("a"), make([]byte, 64)
	allocs := testing.AllocsPerRun(100, func() {
		if n, err := s.TryWrite(in); n != 1 || err != nil {
			t.Fatalf("TryWrite: %d, %v", n, err)
		}
		if _, err := s.Read(buf); err != nil { // the echo
			t.Fatalf("Read: %v", err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per write and read, want none", allocs)
	}
}
