package scrollback

// Buffer is a bounded store of cleaned, numbered lines. It is not safe for
// concurrent use; callers serialise access.
type Buffer struct {
	lim   Limits
	clean cleaner
	cur   editLine
	ring  lineRing
	first int64 // number of the oldest retained line
	marks Marks
	stats Stats
}

// New returns an empty Buffer with the given limits (zero fields: defaults,
// see [Limits.WithDefaults]).
func New(l Limits) *Buffer {
	l = l.WithDefaults()
	b := &Buffer{lim: l}
	b.cur.max = l.MaxLineBytes
	b.ring = newLineRing(l.MaxLines, l.MaxBytes)
	return b
}

// Write cleans p and appends it. It never fails and always consumes all of
// p; control sequences and runes split across calls are reassembled.
func (b *Buffer) Write(p []byte) (int, error) {
	b.stats.BytesIngested += int64(len(p))
	b.clean.run(b, p)
	return len(p), nil
}

// Marks returns the shell-integration markers seen so far.
func (b *Buffer) Marks() Marks { return b.marks }

// Stats returns counters.
func (b *Buffer) Stats() Stats {
	s := b.stats
	s.Lines = b.ring.count + b.partial()
	s.Bytes = b.ring.bytes + b.cur.len()
	s.Total = b.Total()
	s.CutBytes = b.cur.cut
	return s
}

// Total returns Page.Total without building a page.
func (b *Buffer) Total() int64 { return b.completed() + int64(b.partial()) }

// End returns a Cursor positioned at the end of the output so far: its
// next delta holds only output written after this call (continuing the
// current partial line, if any).
func (b *Buffer) End() Cursor {
	if b.cur.len() == 0 {
		return Cursor{next: b.completed()}
	}
	t := b.cur.text()
	return Cursor{next: b.completed(), col: len(t), prefix: t}
}

// LineOpen reports whether the output ends in an unterminated line that is
// not empty (a prompt waiting for its answer, or text still being written).
func (b *Buffer) LineOpen() bool { return b.partial() == 1 }

// completed counts the lines ever terminated by a newline.
func (b *Buffer) completed() int64 { return b.first + int64(b.ring.count) }

// partial is 1 when the current unterminated line is not empty.
func (b *Buffer) partial() int {
	if b.cur.len() > 0 {
		return 1
	}
	return 0
}

// enforce drops the oldest whole lines until the line and byte bounds
// hold (the current line counts towards both).
func (b *Buffer) enforce() {
	p, n := b.partial(), b.cur.len()
	for b.ring.count > 0 && (b.ring.count+p > b.lim.MaxLines || b.ring.bytes+n > b.lim.MaxBytes) {
		b.ring.pop()
		b.first++
		b.stats.DroppedLines++
	}
}

// newline terminates the current line and stores it, trailing blanks
// trimmed.
func (b *Buffer) newline() {
	left, right := b.cur.left(), trimBlanks(b.cur.right())
	if len(right) == 0 {
		left = trimBlanks(left)
	}
	rec := b.ring.store(left, right)
	b.cur.reset()
	b.push(rec)
}

// storeLine stores s, plain text no longer than a line may be, as a whole
// line: the same as writing it to the empty current line and a newline.
func (b *Buffer) storeLine(s []byte) {
	b.marks.TextSincePromptEnd += int64(len(s))
	b.push(b.ring.store(trimBlanks(s), nil))
}

// push appends a completed line, dropping the oldest to make room.
func (b *Buffer) push(rec []byte) {
	b.marks.TextSincePromptEnd++
	if b.ring.count >= b.lim.MaxLines {
		b.ring.pop()
		b.first++
		b.stats.DroppedLines++
	}
	b.ring.push(rec)
	b.enforce()
}

// writeText writes a run of printable ASCII (and tabs) to the current line.
func (b *Buffer) writeText(s []byte) {
	b.marks.TextSincePromptEnd += int64(len(s))
	b.cur.writeASCII(s)
	b.enforce()
}

// writeRune writes one encoded multi-byte rune to the current line.
func (b *Buffer) writeRune(enc []byte) {
	b.marks.TextSincePromptEnd += int64(len(enc))
	b.cur.writeRune(enc)
	b.enforce()
}

// trimBlanks returns s without its trailing spaces. A completed line keeps
// none: a terminal shows no difference, and a program that pads its rows
// to the width (top, tables, progress lines) would make a model pay for
// every blank column.
func trimBlanks(s []byte) []byte {
	n := len(s)
	for n > 0 && s[n-1] == ' ' {
		n--
	}
	return s[:n]
}
