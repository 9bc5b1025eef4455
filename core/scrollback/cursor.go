package scrollback

import (
	"strings"
	"unicode/utf8"

	"github.com/ptyseam/ptyseam/internal/runecut"
)

// Cursor is an incremental read position. The zero Cursor starts at line 0.
type Cursor struct {
	next   int64  // next line to return (the partial line, if open)
	col    int    // bytes of line next already returned
	prefix string // the text of line next already returned
	// open: line next is unterminated where the reader stands, with
	// col bytes of it (none once the line was erased).
	open bool
}

// Line returns the number of the next line the cursor returns from: the
// first line not yet returned, or the line partly returned so far.
func (c Cursor) Line() int64 { return c.next }

// piece is one line's contribution to a delta.
type piece struct {
	n    int64  // line number
	cr   bool   // the line was rewritten: "\r" and the whole line
	text string // the line, or the rest of a partly returned line
	nl   bool   // the line is complete
}

func (p piece) size() int {
	n := len(p.text)
	if p.cr {
		n++
	}
	if p.nl {
		n++
	}
	return n
}

// Next returns the output since the cursor and advances it. read serves
// pages (a Buffer's Page, or a remote seam's page read); it is called once
// with a Newest request of maxLines lines (maxLines < 1 counts as 1). At
// most maxLines lines and about maxBytes bytes (<= 0: no byte bound) are
// returned; if more was pending, the newest part is returned and the delta
// is marked truncated with the exact count of skipped lines.
//
// Each completed line is followed by "\n"; the partial last line is not.
// A partial line returned earlier is continued; if it was rewritten since,
// the delta repeats it whole after a "\r". If the rest of a partly
// returned line was lost, the delta starts with "\n" (closing that line)
// and the line is not counted in Skipped, which counts only whole
// lines. An error from read is returned unchanged and leaves the cursor
// where it was.
func (c *Cursor) Next(read func(PageRequest) (Page, error), maxLines, maxBytes int) (Delta, error) {
	if maxLines < 1 {
		maxLines = 1
	}
	pg, err := read(PageRequest{Newest: true, Count: maxLines})
	if err != nil {
		return Delta{}, err
	}
	// Trust only as many lines as the page holds.
	end := pg.Start + min(int64(len(pg.Lines)), max(pg.End-pg.Start, 0))
	partial := pg.Partial && end == pg.End

	var d Delta
	lead := false // a partly returned line lost its rest: close it
	from := c.next
	if from < pg.Start {
		d.Truncated = true
		d.Skipped = pg.Start - from
		if c.open {
			d.Skipped--
			lead = true
		}
		from = pg.Start
	}
	if from >= end {
		if from > c.next {
			*c = Cursor{next: from}
		} else if c.col > 0 && c.next >= pg.Total {
			// The partial line returned before was erased; the
			// reader's line stays open, now empty.
			*c = Cursor{next: c.next, open: true}
			return Delta{Text: "\r"}, nil
		}
		if lead {
			d.Text = "\n"
		}
		return d, nil
	}

	open := int64(-1) // the line the cursor was inside, if any
	if c.open {
		open = c.next
	}
	pieces := make([]piece, 0, end-from)
	for n := from; n < end; n++ {
		line := pg.Lines[n-pg.Start]
		p := piece{n: n, text: line, nl: n < end-1 || !partial}
		if n == open {
			if strings.HasPrefix(line, c.prefix) {
				p.text = line[len(c.prefix):]
			} else if p.nl && line == strings.TrimRight(c.prefix, " ") {
				// Completed with blanks after what was returned: the
				// stored line lost them (trimBlanks), nothing else.
				p.text = ""
			} else {
				p.cr = true
			}
		}
		pieces = append(pieces, p)
	}
	last := pg.Lines[end-1-pg.Start]
	if partial {
		*c = Cursor{next: end - 1, col: len(last), prefix: last, open: true}
	} else {
		*c = Cursor{next: end}
	}
	if maxBytes > 0 {
		pieces, lead = fit(&d, pieces, lead, open, pg, maxBytes)
	}
	var sb strings.Builder
	if lead {
		sb.WriteByte('\n')
	}
	for _, p := range pieces {
		if p.cr {
			sb.WriteByte('\r')
		}
		sb.WriteString(p.text)
		if p.nl {
			sb.WriteByte('\n')
		}
	}
	d.Text = sb.String()
	return d, nil
}

// fit drops the oldest pieces until the delta fits in maxBytes, counting
// whole lines dropped in d.Skipped; a lone piece still too long keeps
// its tail. open is the line the cursor was inside (-1: none): losing its
// rest closes it with a leading "\n" instead of counting it.
func fit(d *Delta, pieces []piece, lead bool, open int64, pg Page, maxBytes int) ([]piece, bool) {
	size := 0
	if lead {
		size++
	}
	for _, p := range pieces {
		size += p.size()
	}
	for len(pieces) > 1 && size > maxBytes {
		p := pieces[0]
		pieces = pieces[1:]
		size -= p.size()
		d.Truncated = true
		if p.n == open {
			if !lead {
				lead = true
				size++
			}
		} else {
			d.Skipped++
		}
	}
	if len(pieces) == 1 && size > maxBytes {
		p := &pieces[0]
		if p.n == open && !p.cr {
			// Cutting the head of a continuation would splice unrelated
			// text onto what was returned: rewrite the line instead.
			p.cr, p.text = true, pg.Lines[p.n-pg.Start]
		}
		budget := maxBytes - p.size() + len(p.text)
		if lead {
			budget--
		}
		if t := runecut.Tail(p.text, budget); t != "" || p.text == "" {
			p.text = t
		} else {
			// Keep the last rune, so the line is still there to continue.
			_, w := utf8.DecodeLastRuneInString(p.text)
			p.text = p.text[len(p.text)-w:]
		}
		d.Truncated = true
	}
	return pieces, lead
}

// Since is c.Next served by b, reading only the lines the cursor still
// needs: the delta is the same as c.Next(read, maxLines, maxBytes) with a
// read of b.Page(req, 0), but a call costs time proportional to the new
// output instead of to maxLines retained lines.
func (b *Buffer) Since(c *Cursor, maxLines, maxBytes int) Delta {
	d, _ := c.Next(b.ReadFor(*c, 0), maxLines, maxBytes)
	return d
}

// ReadFor returns the page read c.Next asks of b, reading only the lines
// c still needs (its own line and those after it) of the newest it asks
// for, each page within pageBytes (<= 0: no byte bound): a read costs
// what is new, not the retained lines. b must not change until the read.
func (b *Buffer) ReadFor(c Cursor, pageBytes int) func(PageRequest) (Page, error) {
	need := b.Total() - c.next + 1
	return func(r PageRequest) (Page, error) {
		if r.Newest {
			r.Count = int(max(1, min(int64(r.Count), need)))
		}
		return b.Page(r, pageBytes), nil
	}
}
