package screen

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestRingMatchesReference writes random chunks and checks every read
// against a plain slice holding the whole stream.
func TestRingMatchesReference(t *testing.T) {
	for _, max := range []int{1, 7, 4096, 10000} {
		rng := rand.New(rand.NewPCG(uint64(max), 1))
		r := newRing(max)
		var all []byte
		for i := 0; i < 2000; i++ {
			n := rng.IntN(max*2 + 3)
			if rng.IntN(4) == 0 {
				n = rng.IntN(8)
			}
			p := make([]byte, n)
			for j := range p {
				p[j] = byte(rng.IntN(256))
			}
			r.write(p)
			all = append(all, p...)
			if r.end != int64(len(all)) {
				t.Fatalf("max %d: end %d, wrote %d", max, r.end, len(all))
			}
			if want := max64(0, r.end-int64(max)); r.start != want && r.end-r.start != int64(max) {
				t.Fatalf("max %d: start %d end %d (kept %d)", max, r.start, r.end, r.end-r.start)
			}
			if len(r.buf) > max {
				t.Fatalf("max %d: storage %d", max, len(r.buf))
			}
			from := r.start + int64(rng.IntN(int(r.end-r.start)+1))
			a, b := r.slices(from)
			got := append(append([]byte(nil), a...), b...)
			if !bytes.Equal(got, all[from:]) {
				t.Fatalf("max %d: slices(%d) = %d bytes, want %d", max, from, len(got), len(all)-int(from))
			}
		}
		if r.end-r.start != int64(min(max, len(all))) {
			t.Fatalf("max %d: keeps %d of %d", max, r.end-r.start, len(all))
		}
	}
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

func TestRingGrowsLazily(t *testing.T) {
	r := newRing(1 << 20)
	r.write([]byte("hello"))
	if len(r.buf) > 4096 {
		t.Fatalf("a 5-byte session holds %d bytes of storage", len(r.buf))
	}
	a, b := r.slices(0)
	if string(a)+string(b) != "hello" {
		t.Fatalf("got %q%q", a, b)
	}
}
