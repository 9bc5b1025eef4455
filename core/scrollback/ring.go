package scrollback

// lineRing holds the completed, retained lines, oldest first, as a ring of
// records. Line text lives in shared slabs: storing a line is a copy into
// the current slab, and a slab is freed (by the collector) once the ring
// has dropped every line in it, so memory tracks the retained bytes.
type lineRing struct {
	recs  [][]byte // ring storage; len(recs) is the capacity
	head  int      // index of the oldest record
	count int      // records in use
	limit int      // never more than this many records (MaxLines)
	bytes int      // text bytes of the records in use

	slab     []byte // current slab: len is the used part
	slabSize int
}

// minSlab and maxSlab bound the slab size, which scales with MaxBytes so
// that the slab in use and the oldest, partly dropped one stay a small
// fraction of the byte bound.
const (
	minSlab = 512
	maxSlab = 64 << 10
)

func newLineRing(maxLines, maxBytes int) lineRing {
	s := maxBytes / 16
	if s < minSlab {
		s = minSlab
	}
	if s > maxSlab {
		s = maxSlab
	}
	return lineRing{limit: maxLines, slabSize: s}
}

// store copies a+b into slab storage and returns the copy.
func (r *lineRing) store(a, b []byte) []byte {
	n := len(a) + len(b)
	if n == 0 {
		return nil
	}
	if n > r.slabSize/2 {
		// A big line gets storage of its own, freed with it.
		buf := make([]byte, n)
		copy(buf[copy(buf, a):], b)
		return buf
	}
	if cap(r.slab)-len(r.slab) < n {
		r.slab = make([]byte, 0, r.slabSize)
	}
	off := len(r.slab)
	r.slab = append(r.slab, a...)
	r.slab = append(r.slab, b...)
	return r.slab[off : off+n : off+n]
}

// push appends a record; the caller has made room (count < limit).
func (r *lineRing) push(rec []byte) {
	if r.count == len(r.recs) {
		r.grow()
	}
	i := r.head + r.count
	if i >= len(r.recs) {
		i -= len(r.recs)
	}
	r.recs[i] = rec
	r.count++
	r.bytes += len(rec)
}

func (r *lineRing) grow() {
	n := 2 * len(r.recs)
	if n < 64 {
		n = 64
	}
	if n > r.limit {
		n = r.limit
	}
	recs := make([][]byte, n)
	for i := 0; i < r.count; i++ {
		recs[i] = r.at(i)
	}
	r.recs, r.head = recs, 0
}

// pop drops the oldest record.
func (r *lineRing) pop() {
	r.bytes -= len(r.recs[r.head])
	r.recs[r.head] = nil // let the slab go once all its lines are gone
	r.head++
	if r.head == len(r.recs) {
		r.head = 0
	}
	r.count--
}

// at returns the i-th oldest record.
func (r *lineRing) at(i int) []byte {
	j := r.head + i
	if j >= len(r.recs) {
		j -= len(r.recs)
	}
	return r.recs[j]
}
