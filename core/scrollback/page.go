package scrollback

import "github.com/ptyseam/ptyseam/internal/runecut"

// Page returns the lines req selects, at most maxBytes of text (<= 0: no
// byte bound). It always returns at least one line when any is selected,
// cut to its last maxBytes bytes if it alone is too long. Its cost is
// proportional to the page, not to the retained lines.
//
// A Newest request selects the newest Count lines; otherwise lines
// [Start, Start+Count) clipped to what exists. Requested lines that are no
// longer retained are reported in Dropped (and Truncated). A page cut
// short by maxBytes ends early with Truncated set: page on from End.
func (b *Buffer) Page(req PageRequest, maxBytes int) Page {
	b.readTo = b.completed()
	total := b.Total()
	pg := Page{PageSpan: PageSpan{Total: total, First: b.first}}
	count := int64(req.Count)
	if count < 0 {
		count = 0
	}
	start := req.Start
	if req.Newest {
		start = max(total-count, 0)
	}
	if start < 0 {
		start = 0
	}
	if start > total {
		start = total
	}
	end := min(start+count, total)
	if count > total-start { // overflow-safe form of start+count > total
		end = total
	}
	if start < b.first && end > start {
		// Report only the requested lines that were lost; the page then
		// starts (or, if nothing requested is left, sits) at First.
		pg.Truncated = true
		pg.Dropped = min(b.first, end) - start
		start = b.first
		end = max(end, start)
	}
	pg.Start, pg.End = start, start
	if start >= end {
		return pg
	}
	if req.Newest && maxBytes > 0 {
		return b.newestWithin(pg, start, end, maxBytes)
	}
	pg.Lines = make([]string, 0, end-start)
	used := 0
	for n := start; n < end; n++ {
		l := b.lineBytes(n)
		if maxBytes > 0 && used+lineLen(l) > maxBytes {
			if n > start {
				pg.Truncated = true
				break
			}
			tail := tailString(l, maxBytes)
			pg.Lines = append(pg.Lines, tail)
			pg.Truncated, pg.LineCut = true, int64(lineLen(l)-len(tail))
			pg.End = n + 1
			break
		}
		used += lineLen(l)
		pg.Lines = append(pg.Lines, l.String())
		pg.End = n + 1
	}
	pg.Partial = pg.End == total && b.partial() == 1
	return pg
}

// newestWithin fills a Newest page with the newest lines of [start, end)
// that fit in maxBytes: a byte bound cuts the oldest lines of a Newest page,
// not the newest. A newest line alone too long keeps its tail.
func (b *Buffer) newestWithin(pg Page, start, end int64, maxBytes int) Page {
	from, used := end, 0
	for n := end - 1; n >= start; n-- {
		l := lineLen(b.lineBytes(n))
		if used+l > maxBytes {
			pg.Truncated = true
			break
		}
		used += l
		from = n
	}
	if from == end { // the newest line alone exceeds the bound
		from = end - 1
		l := b.lineBytes(from)
		tail := tailString(l, maxBytes)
		pg.Lines, pg.LineCut = []string{tail}, int64(lineLen(l)-len(tail))
	} else {
		pg.Lines = make([]string, 0, end-from)
		for n := from; n < end; n++ {
			pg.Lines = append(pg.Lines, b.lineBytes(n).String())
		}
	}
	pg.Start, pg.End = from, end
	pg.Partial = pg.End == pg.Total && b.partial() == 1
	return pg
}

// lineRef is a line's text in at most two pieces (the current line lives
// in a gap buffer).
type lineRef struct{ a, b []byte }

func lineLen(l lineRef) int { return len(l.a) + len(l.b) }

// String copies the line's text.
func (l lineRef) String() string {
	if len(l.b) == 0 {
		return string(l.a)
	}
	return string(l.a) + string(l.b)
}

// lineBytes returns retained line n (first <= n < Total).
func (b *Buffer) lineBytes(n int64) lineRef {
	c := b.completed()
	if n == c {
		return b.cur.shown()
	}
	return lineRef{a: b.ring.at(int(n - b.first))}
}

// tailString returns the last at most max bytes of l, starting at a rune
// boundary.
func tailString(l lineRef, max int) string { return runecut.Tail(l.String(), max) }

// Text joins the page's lines with "\n", ending with a newline unless the
// page ends with the partial current line.
func (p Page) Text() string {
	n := 0
	for _, l := range p.Lines {
		n += len(l) + 1
	}
	b := make([]byte, 0, n)
	for i, l := range p.Lines {
		b = append(b, l...)
		if i < len(p.Lines)-1 || !p.Partial {
			b = append(b, '\n')
		}
	}
	return string(b)
}
