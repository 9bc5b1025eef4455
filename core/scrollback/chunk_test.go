package scrollback

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestChunkInvariance writes random streams whole and in random chunks and
// compares both with the reference cleaner: same lines, marks and counters.
func TestChunkInvariance(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 400 {
		s := randStream(r, 1+r.IntN(200))
		maxLine := []int{1, 4, 16, 64, 1 << 16}[r.IntN(5)]
		lim := Limits{MaxLines: 1 << 20, MaxBytes: 1 << 26, MaxLineBytes: maxLine}
		whole := New(lim)
		whole.Write(s)
		chunked := New(lim)
		for _, c := range randChunks(r, s) {
			chunked.Write(c)
		}
		ref := refClean(s, maxLine)
		want := ref.all()
		for name, b := range map[string]*Buffer{"whole": whole, "chunked": chunked} {
			pg := everything(b)
			if !slices.Equal(pg.Lines, want) {
				t.Fatalf("trial %d %s: stream %q\n got %q\nwant %q", trial, name, s, pg.Lines, want)
			}
			if b.Marks() != ref.marks {
				t.Fatalf("trial %d %s: stream %q marks %+v, want %+v", trial, name, s, b.Marks(), ref.marks)
			}
			st := b.Stats()
			if st.CutBytes != ref.cut || st.InvalidUTF8 != ref.invalid || st.Total != int64(len(want)) || st.BytesIngested != int64(len(s)) {
				t.Fatalf("trial %d %s: stream %q stats %+v, want cut %d invalid %d total %d", trial, name, s, st, ref.cut, ref.invalid, len(want))
			}
			if pg.Partial != (len(ref.line) > 0) {
				t.Fatalf("trial %d %s: Partial %v", trial, name, pg.Partial)
			}
			if e := b.End(); e.col != len(ref.shown()) || e.next != int64(len(ref.lines)) {
				t.Fatalf("trial %d %s: End %+v", trial, name, e)
			}
		}
	}
}
