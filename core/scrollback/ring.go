package scrollback

// lineRing holds the completed, retained lines, oldest first, as a ring of
// records. Line text lives in shared slabs: storing a line is a copy into
// the current slab. A full slab is retired; once the ring has dropped
// every line stored before it was retired, it is free: one free slab is
// kept for the next slab the ring needs (a flood through a bounded buffer
// then allocates nothing), any other is left to the collector, so memory
// tracks the retained bytes. No record leaves the package uncopied (pages
// and deltas are strings), so a freed slab has no reader.
type lineRing struct {
	recs   [][]byte // ring storage; len(recs) is the capacity
	head   int      // index of the oldest record
	count  int      // records in use
	limit  int      // never more than this many records (MaxLines)
	bytes  int      // text bytes of the records in use
	pushed int64    // records ever pushed: the oldest is number pushed-count

	slab     []byte        // current slab: len is the used part
	retired  []retiredSlab // full slabs still holding lines, oldest first
	spare    []byte        // a free slab for the next one needed, or nil
	slabSize int
}

// retiredSlab is a full slab and the number of records pushed when it was
// retired: every line in it is older than that.
type retiredSlab struct {
	slab   []byte
	before int64
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
		r.nextSlab()
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
	r.pushed++
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
	r.release()
}

// popNewest takes the newest record back out. Its bytes stay in their
// slab, which is released as before: the oldest record is unchanged.
func (r *lineRing) popNewest() []byte {
	j := r.head + r.count - 1
	if j >= len(r.recs) {
		j -= len(r.recs)
	}
	rec := r.recs[j]
	r.recs[j] = nil
	r.count--
	r.pushed--
	r.bytes -= len(rec)
	return rec
}

// nextSlab retires the current slab and starts the spare one, or a new
// one.
func (r *lineRing) nextSlab() {
	if r.slab != nil {
		r.retired = append(r.retired, retiredSlab{slab: r.slab, before: r.pushed})
		r.release()
	}
	if r.spare != nil {
		r.slab, r.spare = r.spare, nil
		return
	}
	r.slab = make([]byte, 0, r.slabSize)
}

// release frees the retired slabs whose lines the ring has all dropped:
// the first becomes the spare unless there is one, the rest go.
func (r *lineRing) release() {
	oldest := r.pushed - int64(r.count)
	k := 0
	for k < len(r.retired) && r.retired[k].before <= oldest {
		if r.spare == nil {
			r.spare = r.retired[k].slab[:0]
		}
		k++
	}
	if k > 0 {
		n := copy(r.retired, r.retired[k:])
		clear(r.retired[n:])
		r.retired = r.retired[:n]
	}
}

// at returns the i-th oldest record.
func (r *lineRing) at(i int) []byte {
	j := r.head + i
	if j >= len(r.recs) {
		j -= len(r.recs)
	}
	return r.recs[j]
}
