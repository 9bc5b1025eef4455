package scrollback

import (
	"fmt"
	"testing"
)

// A byte bound on a Newest page drops the oldest lines, never the newest.
func TestNewestPageKeepsNewestUnderByteBound(t *testing.T) {
	b := New(Limits{})
	for i := range 100 {
		fmt.Fprintf(b, "line-%03d\r\n", i) // 8 bytes of text each
	}
	p := b.Page(PageRequest{Newest: true, Count: 50}, 8*10)
	if !p.Truncated || len(p.Lines) != 10 || p.Start != 90 || p.End != 100 {
		t.Fatalf("page %d..%d (%d lines, truncated %v), want 90..100", p.Start, p.End, len(p.Lines), p.Truncated)
	}
	if p.Lines[9] != "line-099" || p.Lines[0] != "line-090" {
		t.Fatalf("wrong lines: %q .. %q", p.Lines[0], p.Lines[9])
	}
	fmt.Fprintf(b, "%s", make([]byte, 0))
	b.Write([]byte("a-very-long-unterminated-line"))
	p = b.Page(PageRequest{Newest: true, Count: 5}, 4)
	if len(p.Lines) != 1 || p.Lines[0] != "line" || !p.Partial || !p.Truncated || p.LineCut != 25 {
		t.Fatalf("lone long newest line: %+v", p)
	}
}
