package core

import (
	"bytes"
	"context"
	"testing"
)

// The session's read loop feeds every tap on every read of the terminal:
// queueing must not cost an allocation per read. A reader that recycles
// what Next returned costs it none at all.
func TestTapFeedDoesNotAllocatePerRead(t *testing.T) {
	tap := newTap(&session{id: "s-alloc"})
	read := bytes.Repeat([]byte("x"), 4<<10)
	const reads = 64
	batch := func(recycle bool) {
		for range reads {
			tap.feedLocked(read)
		}
		b, err := tap.Next(context.Background())
		if err != nil || len(b) != reads*len(read) {
			t.Fatalf("Next: %d bytes, %v", len(b), err)
		}
		if recycle {
			tap.Recycle(b)
		}
	}
	if n := testing.AllocsPerRun(20, func() { batch(false) }); n > reads/4 {
		t.Errorf("%v allocations for a batch of %d reads: want far fewer than one per read", n, reads)
	}
	batch(true)
	if n := testing.AllocsPerRun(20, func() { batch(true) }); n != 0 {
		t.Errorf("%v allocations for a batch of %d reads with Recycle: want none", n, reads)
	}
	tap.Recycle(nil)
	if tap.spare != nil {
		t.Error("Recycle(nil) kept the spare buffer")
	}
}
