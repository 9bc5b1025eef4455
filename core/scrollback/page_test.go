package scrollback

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// numbered returns a buffer holding lines "L0".."L<n-1>" under l.
func numbered(l Limits, n int) *Buffer {
	b := New(l)
	for i := range n {
		fmt.Fprintf(b, "L%d\n", i)
	}
	return b
}

func TestPage(t *testing.T) {
	b := numbered(Limits{MaxLines: 5}, 10) // retains L5..L9
	b.Write([]byte("tail"))                // the partial line pushes L5 out
	cases := []struct {
		name     string
		req      PageRequest
		maxBytes int
		want     Page
	}{
		{"newest", PageRequest{Newest: true, Count: 2}, 0,
			Page{Lines: []string{"L9", "tail"}, PageSpan: PageSpan{Start: 9, End: 11, Total: 11, First: 6, Partial: true}}},
		{"newest beyond retained", PageRequest{Newest: true, Count: 7}, 0,
			Page{Lines: []string{"L6", "L7", "L8", "L9", "tail"}, PageSpan: PageSpan{Start: 6, End: 11, Total: 11, First: 6, Partial: true, Truncated: true, Dropped: 2}}},
		{"range", PageRequest{Start: 7, Count: 2}, 0,
			Page{Lines: []string{"L7", "L8"}, PageSpan: PageSpan{Start: 7, End: 9, Total: 11, First: 6}}},
		{"range clipped at end", PageRequest{Start: 9, Count: 100}, 0,
			Page{Lines: []string{"L9", "tail"}, PageSpan: PageSpan{Start: 9, End: 11, Total: 11, First: 6, Partial: true}}},
		{"range below first", PageRequest{Start: 3, Count: 5}, 0,
			Page{Lines: []string{"L6", "L7"}, PageSpan: PageSpan{Start: 6, End: 8, Total: 11, First: 6, Truncated: true, Dropped: 3}}},
		{"range wholly dropped", PageRequest{Start: 0, Count: 2}, 0,
			Page{PageSpan: PageSpan{Start: 6, End: 6, Total: 11, First: 6, Truncated: true, Dropped: 2}}},
		{"beyond total", PageRequest{Start: 50, Count: 2}, 0,
			Page{PageSpan: PageSpan{Start: 11, End: 11, Total: 11, First: 6}}},
		{"huge count", PageRequest{Start: 8, Count: math.MaxInt}, 0,
			Page{Lines: []string{"L8", "L9", "tail"}, PageSpan: PageSpan{Start: 8, End: 11, Total: 11, First: 6, Partial: true}}},
		{"byte bound", PageRequest{Start: 6, Count: 5}, 5,
			Page{Lines: []string{"L6", "L7"}, PageSpan: PageSpan{Start: 6, End: 8, Total: 11, First: 6, Truncated: true}}},
		{"byte bound keeps one line", PageRequest{Start: 10, Count: 1}, 2,
			Page{Lines: []string{"il"}, PageSpan: PageSpan{Start: 10, End: 11, Total: 11, First: 6, Partial: true, Truncated: true, LineCut: 2}}},
		{"byte bound and dropped", PageRequest{Start: 5, Count: 3}, 2,
			Page{Lines: []string{"L6"}, PageSpan: PageSpan{Start: 6, End: 7, Total: 11, First: 6, Truncated: true, Dropped: 1}}},
		{"zero count", PageRequest{Start: 7, Count: 0}, 0,
			Page{PageSpan: PageSpan{Start: 7, End: 7, Total: 11, First: 6}}},
		{"negative start", PageRequest{Start: -4, Count: 1}, 0,
			Page{PageSpan: PageSpan{Start: 6, End: 6, Total: 11, First: 6, Truncated: true, Dropped: 1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := b.Page(c.req, c.maxBytes)
			if !slices.Equal(got.Lines, c.want.Lines) {
				t.Fatalf("lines %q, want %q", got.Lines, c.want.Lines)
			}
			got.Lines, c.want.Lines = nil, nil
			if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", c.want) {
				t.Fatalf("page %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestPageCutsAtRuneBoundary(t *testing.T) {
	b := New(Limits{})
	b.Write([]byte(strings.Repeat("\u4e16", 5) + "\n"))
	pg := b.Page(PageRequest{Start: 0, Count: 1}, 7)
	if len(pg.Lines) != 1 || pg.Lines[0] != "\u4e16\u4e16" || !pg.Truncated || pg.LineCut != 9 {
		t.Fatalf("page %+v", pg)
	}
}

func TestPageCopiesText(t *testing.T) {
	b := New(Limits{})
	b.Write([]byte("abc"))
	pg := b.Page(PageRequest{Newest: true, Count: 1}, 0)
	b.Write([]byte("\rxyz\n"))
	if pg.Lines[0] != "abc" {
		t.Fatalf("a returned page changed under a later write: %q", pg.Lines[0])
	}
}

func TestTotalAndEnd(t *testing.T) {
	b := New(Limits{})
	if b.Total() != 0 || b.End() != (Cursor{}) {
		t.Fatalf("empty buffer: total %d end %+v", b.Total(), b.End())
	}
	b.Write([]byte("a\nb"))
	if b.Total() != 2 || b.End() != (Cursor{next: 1, col: 1, prefix: "b", open: true}) {
		t.Fatalf("total %d end %+v", b.Total(), b.End())
	}
	b.Write([]byte("\x1b[2K"))
	if b.Total() != 1 || b.End() != (Cursor{next: 1}) {
		t.Fatalf("after erase: total %d end %+v", b.Total(), b.End())
	}
}
