package screen

// ring keeps the newest bytes of a session's raw output, up to max, with
// absolute offsets: byte k of the stream is the k-th byte the session ever
// printed. Its storage grows with use, so a quiet session holds little.
type ring struct {
	buf   []byte // circular storage; len(buf) <= max
	max   int
	start int64 // offset of the oldest byte kept
	end   int64 // offset after the newest byte
}

func newRing(max int) ring { return ring{max: max} }

// write appends p, dropping the oldest bytes beyond max.
func (r *ring) write(p []byte) {
	if len(p) > r.max {
		r.end += int64(len(p) - r.max)
		r.start = r.end
		p = p[len(p)-r.max:]
	}
	if len(p) == 0 {
		return
	}
	kept := int(r.end - r.start)
	if need := kept + len(p); need > len(r.buf) && len(r.buf) < r.max {
		r.grow(need)
	}
	n := len(r.buf)
	pos := int(r.end % int64(n))
	c := copy(r.buf[pos:], p)
	copy(r.buf, p[c:])
	r.end += int64(len(p))
	if r.end-r.start > int64(n) {
		r.start = r.end - int64(n)
	}
}

// grow enlarges the storage to hold at least need bytes (at most max),
// keeping the kept bytes at their offsets.
func (r *ring) grow(need int) {
	size := max(len(r.buf)*2, 4096)
	for size < need {
		size *= 2
	}
	size = min(size, r.max)
	nb := make([]byte, size)
	a, b := r.slices(r.start)
	pos := int(r.start % int64(size))
	c := copy(nb[pos:], a)
	c2 := copy(nb[pos+c:], b)
	if c < len(a) {
		copy(nb, a[c:])
		copy(nb[len(a)-c:], b)
	} else if c2 < len(b) {
		copy(nb, b[c2:])
	}
	r.buf = nb
}

// slices returns the kept bytes from offset from (clamped to the kept
// range) to the end, as up to two slices of the storage.
func (r *ring) slices(from int64) (a, b []byte) {
	from = max(from, r.start)
	if from >= r.end || len(r.buf) == 0 {
		return nil, nil
	}
	n := int64(len(r.buf))
	i := int(from % n)
	j := int(r.end % n)
	if i < j {
		return r.buf[i:j], nil
	}
	return r.buf[i:], r.buf[:j]
}
