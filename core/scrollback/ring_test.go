package scrollback

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestFloodAllocatesNothingOnceFull: once a bounded buffer is full, a
// flood through it stores its lines in the slabs the dropped lines freed.
func TestFloodAllocatesNothingOnceFull(t *testing.T) {
	b := New(Limits{MaxLines: 1 << 20, MaxBytes: 1 << 20})              // 64 KiB slabs
	chunk := bytes.Repeat([]byte(strings.Repeat("y", 78)+"\r\n"), 1600) // 128,000 bytes: two slabs' worth
	for range 20 {
		b.Write(chunk) // past the bound: lines dropped, slabs retired and freed
	}
	if allocs := testing.AllocsPerRun(50, func() { b.Write(chunk) }); allocs != 0 {
		t.Fatalf("a full buffer's flood allocated %v times per 128,000 bytes, want 0", allocs)
	}
	if st := b.Stats(); st.Bytes > 1<<20 || st.Lines == 0 {
		t.Fatalf("stats %+v", st)
	}
}

// TestRetainedLinesSurviveSlabReuse writes lines of mixed lengths (some
// longer than half a slab, which get storage of their own) through small
// bounds, so that slabs are freed and reused many times, and checks after
// every line that each retained line still has its own text.
func TestRetainedLinesSurviveSlabReuse(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	lim := Limits{MaxLines: 1000, MaxBytes: 2000, MaxLineBytes: 600}.WithDefaults() // 512-byte slabs
	b := New(lim)
	var all []string
	for i := range 5000 {
		n := r.IntN(120)
		if r.IntN(8) == 0 {
			n = 256 + r.IntN(330)
		}
		line := fmt.Sprintf("%d:", i) + strings.Repeat(string(rune('a'+i%26)), n)
		all = append(all, line)
		b.Write([]byte(line + "\r\n"))
		pg := everything(b)
		if want := all[pg.First:]; !slices.Equal(pg.Lines, want) {
			t.Fatalf("after line %d: retained %q, want %q", i, pg.Lines, want)
		}
	}
	if b.Stats().DroppedLines < 4000 {
		t.Fatalf("only %d lines dropped: the slabs were not reused", b.Stats().DroppedLines)
	}
}
