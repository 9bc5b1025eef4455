package scrollback

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

func TestBoundsHold(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 100 {
		lim := Limits{MaxLines: 1 + r.IntN(20), MaxBytes: 1 + r.IntN(300), MaxLineBytes: 1 + r.IntN(100)}.WithDefaults()
		b := New(lim)
		ref := []string{}
		for _, ch := range randChunks(r, randStream(r, 100)) {
			b.Write(ch)
			st := b.Stats()
			if st.Lines > lim.MaxLines || st.Bytes > lim.MaxBytes {
				t.Fatalf("trial %d: %+v exceeds %+v", trial, st, lim)
			}
			pg := everything(b)
			if pg.First != st.Total-int64(st.Lines) || pg.First != st.DroppedLines || pg.Start != pg.First {
				t.Fatalf("trial %d: page %+v stats %+v", trial, pg, st)
			}
			n := 0
			for _, l := range pg.Lines {
				n += len(l)
			}
			if n != st.Bytes || len(pg.Lines) != st.Lines {
				t.Fatalf("trial %d: page holds %d lines %d bytes, stats %+v", trial, len(pg.Lines), n, st)
			}
			// Numbers are stable: a completed line keeps its number and
			// text for as long as it is retained.
			for i, l := range pg.Lines {
				num := pg.Start + int64(i)
				if pg.Partial && i == len(pg.Lines)-1 {
					break
				}
				if num < int64(len(ref)) && ref[num] != l {
					t.Fatalf("trial %d: line %d was %q, now %q", trial, num, ref[num], l)
				}
				for int64(len(ref)) <= num {
					ref = append(ref, "")
				}
				ref[num] = l
			}
		}
	}
}

func TestDropsOldestFirst(t *testing.T) {
	b := numbered(Limits{MaxLines: 1000, MaxBytes: 20}, 10) // "L0".."L9": 2 bytes each
	pg := everything(b)
	if pg.First != 0 || len(pg.Lines) != 10 {
		t.Fatalf("page %+v", pg)
	}
	b.Write([]byte("L10\n"))
	pg = everything(b)
	if pg.First != 2 || pg.Lines[0] != "L2" || pg.Total != 11 || b.Stats().Bytes != 19 {
		t.Fatalf("page %+v stats %+v", pg, b.Stats())
	}
	b.Write([]byte("01234"))
	if pg = everything(b); pg.First != 4 || b.Stats().Bytes != 20 {
		t.Fatalf("partial line counts towards the bound: page %+v stats %+v", pg, b.Stats())
	}
}

// TestFloodMemory writes 1,000,000 lines and checks the live heap stays
// near the byte bound.
func TestFloodMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("flood")
	}
	const maxBytes = 4 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b := New(Limits{MaxLines: 1 << 20, MaxBytes: maxBytes})
	line := []byte(strings.Repeat("y", 78) + "\r\n")
	chunk := make([]byte, 0, 32<<10)
	for i := 0; i < 1_000_000; i++ {
		chunk = append(chunk, line...)
		if len(chunk)+len(line) > cap(chunk) {
			b.Write(chunk)
			chunk = chunk[:0]
		}
	}
	b.Write(chunk)
	runtime.GC()
	runtime.ReadMemStats(&after)
	st := b.Stats()
	if st.Total != 1_000_000 || st.Bytes > maxBytes {
		t.Fatalf("stats %+v", st)
	}
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	// Text plus one 24-byte record per retained line.
	limit := int64(maxBytes)*3/2 + int64(st.Lines)*24
	t.Logf("heap grew %d bytes for %d retained bytes in %d lines (limit %d)", grown, st.Bytes, st.Lines, limit)
	if grown > limit {
		t.Fatalf("heap grew %d bytes, limit %d", grown, limit)
	}
	runtime.KeepAlive(b)
}

// TestDropsOnlyWhatItMust checks that the buffer retains the longest
// suffix of lines within the bounds. Streams of text and newlines only
// grow (ASCII only: cutting a line with wide runes can shrink it), so the
// minimal First at each point is computable from the reference.
func TestDropsOnlyWhatItMust(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	words := []string{"a", "bb", "ccc", "\n", "\r\n", strings.Repeat("z", 40)}
	for trial := range 200 {
		lim := Limits{MaxLines: 1 + r.IntN(10), MaxBytes: 1 + r.IntN(200), MaxLineBytes: 1 + r.IntN(60)}.WithDefaults()
		var sb strings.Builder
		for range 1 + r.IntN(80) {
			sb.WriteString(words[r.IntN(len(words))])
		}
		s := []byte(sb.String())
		b := New(lim)
		written := 0
		for _, ch := range randChunks(r, s) {
			b.Write(ch)
			written += len(ch)
			all := refClean(s[:written], lim.MaxLineBytes).all()
			first, n, size := len(all), 0, 0
			for first > 0 && n+1 <= lim.MaxLines && size+len(all[first-1]) <= lim.MaxBytes {
				first--
				n++
				size += len(all[first])
			}
			if pg := everything(b); pg.First != int64(first) {
				t.Fatalf("trial %d: First %d, want %d (lines %q, limits %+v)", trial, pg.First, first, all, lim)
			}
		}
	}
}
