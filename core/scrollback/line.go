package scrollback

import "unicode/utf8"

// editLine is the current, unterminated line, edited as a terminal edits
// its cursor row: text overwrites from the write position, "\r" rewinds,
// "\b" steps back one rune, and erasures cut. It is a gap buffer, so every
// edit costs time proportional to the bytes it touches, never to the line.
//
// The logical line is buf[dead:gs] + buf[ge:]; the write position sits
// between the two halves. buf[:dead] holds bytes cut from the front of an
// over-long line, reclaimed lazily.
type editLine struct {
	buf  []byte
	dead int // start of the live left half
	gs   int // gap start: the write position
	ge   int // gap end: start of the right half
	pad  int // blank columns before the write position on an erased line
	max  int // MaxLineBytes
	cut  int64
}

// initialLineCap is the first gap buffer size; most lines fit.
const initialLineCap = 256

// shrinkLineCap is the size above which a finished line's buffer is
// released rather than reused, so one huge line does not pin memory.
const shrinkLineCap = 128 << 10

func (l *editLine) len() int { return l.gs - l.dead + len(l.buf) - l.ge }

// empty reports a fresh line: no text and no pending blanks.
func (l *editLine) empty() bool { return l.gs == l.dead && l.ge == len(l.buf) && l.pad == 0 }

func (l *editLine) left() []byte { return l.buf[l.dead:l.gs] }

func (l *editLine) right() []byte { return l.buf[l.ge:] }

// shown returns the line as a screen shows it: the text before the write
// position, and the text after it without its trailing blanks, columns a
// redraw blanked (readline clears a line with blanks where the terminal
// has no erase), which a screen shows as nothing. The blanks before the
// write position stay: a prompt's, where typing goes.
func (l *editLine) shown() lineRef { return lineRef{l.left(), trimBlanks(l.right())} }

// text returns a copy of the logical line.
func (l *editLine) text() string {
	if l.ge == len(l.buf) {
		return string(l.buf[l.dead:l.gs])
	}
	b := make([]byte, 0, l.len())
	b = append(b, l.left()...)
	b = append(b, l.right()...)
	return string(b)
}

// reset empties the line for the next one.
func (l *editLine) reset() {
	if len(l.buf) > shrinkLineCap {
		l.buf = nil
	}
	l.dead, l.gs, l.ge, l.pad = 0, 0, len(l.buf), 0
}

// load makes text the line, with the write position at column 0.
func (l *editLine) load(text []byte) {
	l.reset()
	l.ensureGap(len(text))
	l.ge = len(l.buf) - len(text)
	copy(l.buf[l.ge:], text)
}

// ensureGap makes room for n more bytes at the write position.
func (l *editLine) ensureGap(n int) {
	if l.ge-l.gs >= n {
		return
	}
	leftLen, rightLen := l.gs-l.dead, len(l.buf)-l.ge
	used := leftLen + rightLen
	if l.dead > 0 && l.dead+l.ge-l.gs >= n && l.dead >= used/2 {
		// Reclaim the cut prefix in place: the bytes moved are paid for
		// by the at least as many bytes cut earlier.
		copy(l.buf, l.buf[l.dead:l.gs])
		l.gs, l.dead = leftLen, 0
		return
	}
	size := 2 * (used + n)
	if size < initialLineCap {
		size = initialLineCap
	}
	nb := make([]byte, size)
	copy(nb, l.left())
	copy(nb[size-rightLen:], l.right())
	l.buf, l.dead, l.gs, l.ge = nb, 0, leftLen, size-rightLen
}

// fillPad materialises the blank columns left by an erase before text is
// written after them.
func (l *editLine) fillPad() {
	if l.pad == 0 {
		return
	}
	n := l.pad
	l.pad = 0
	l.ensureGap(n)
	for i := 0; i < n; i++ {
		l.buf[l.gs+i] = ' '
	}
	l.gs += n
}

// dropRight removes up to n runes after the write position (the runes the
// new text overwrites).
func (l *editLine) dropRight(n int) {
	r := l.buf[l.ge:]
	i := 0
	for n > 0 && i < len(r) {
		if r[i] < utf8.RuneSelf {
			i++
		} else {
			_, w := utf8.DecodeRune(r[i:])
			i += w
		}
		n--
	}
	l.ge += i
}

// writeASCII writes a run of single-byte runes at the write position.
func (l *editLine) writeASCII(s []byte) {
	l.fillPad()
	if l.ge < len(l.buf) {
		l.dropRight(len(s))
	}
	if len(s) > l.max && l.ge == len(l.buf) {
		// Only the run's tail can survive the line bound: skip the rest
		// without ever storing it.
		l.cut += int64(l.gs-l.dead) + int64(len(s)-l.max)
		l.dead, l.gs = 0, 0
		s = s[len(s)-l.max:]
	}
	l.ensureGap(len(s))
	copy(l.buf[l.gs:], s)
	l.gs += len(s)
	l.trim()
}

// writeRune writes one encoded rune at the write position.
func (l *editLine) writeRune(enc []byte) {
	l.fillPad()
	if l.ge < len(l.buf) {
		l.dropRight(1)
	}
	l.ensureGap(len(enc))
	copy(l.buf[l.gs:], enc)
	l.gs += len(enc)
	l.trim()
}

// trim enforces the line bound: it drops the fewest whole runes from the
// front so that the line fits. Growth never exceeds the left half, so the
// cut stays within it.
func (l *editLine) trim() {
	over := l.len() - l.max
	if over <= 0 {
		return
	}
	d := l.dead + over
	for d < l.gs && !utf8.RuneStart(l.buf[d]) {
		d++
	}
	if d > l.gs {
		d = l.gs
	}
	l.cut += int64(d - l.dead)
	l.dead = d
}

// carriageReturn moves the write position to column 0.
func (l *editLine) carriageReturn() {
	l.pad = 0
	k := l.gs - l.dead
	copy(l.buf[l.ge-k:l.ge], l.buf[l.dead:l.gs])
	l.ge -= k
	l.gs = l.dead
}

// backspace moves the write position one rune left, not past column 0.
func (l *editLine) backspace() {
	if l.pad > 0 {
		l.pad--
		return
	}
	if l.gs == l.dead {
		return
	}
	_, w := utf8.DecodeLastRune(l.buf[l.dead:l.gs])
	copy(l.buf[l.ge-w:l.ge], l.buf[l.gs-w:l.gs])
	l.gs -= w
	l.ge -= w
}

// maxColumn bounds the blank columns a cursor move (CSI C, CSI G) leaves
// past a line's end; a terminal clamps at its width, which the scrollback
// does not know, so it takes one wider than any terminal.
const maxColumn = 1024

// column is the write position's column: the runes before it and the
// blanks an erase or a move left there.
func (l *editLine) column() int { return l.pad + utf8.RuneCount(l.left()) }

// maxBlankScan bounds the line blank inspects: a longer line is taken
// for text, so a stream of cursor moves never rescans a long line.
const maxBlankScan = 256

// blank reports whether the line holds nothing but spaces.
func (l *editLine) blank() bool {
	if l.len() > maxBlankScan {
		return false
	}
	for _, half := range [2][]byte{l.left(), l.right()} {
		for _, c := range half {
			if c != ' ' {
				return false
			}
		}
	}
	return true
}

// back moves the write position n columns left (CSI D), not past
// column 0: the blanks after the line's end first, then its runes.
func (l *editLine) back(n int) {
	d := min(n, l.pad)
	l.pad -= d
	n -= d
	i := l.gs
	for ; n > 0 && i > l.dead; n-- {
		i--
		for i > l.dead && !utf8.RuneStart(l.buf[i]) {
			i--
		}
	}
	k := l.gs - i
	copy(l.buf[l.ge-k:l.ge], l.buf[i:l.gs])
	l.gs -= k
	l.ge -= k
}

// forward moves the write position n columns right (CSI C) over the
// line's runes; past its end the columns are blanks, as on a terminal,
// up to maxColumn of them.
func (l *editLine) forward(n int) {
	i := l.ge
	for ; n > 0 && i < len(l.buf); n-- {
		i++
		for i < len(l.buf) && !utf8.RuneStart(l.buf[i]) {
			i++
		}
	}
	k := i - l.ge
	copy(l.buf[l.gs:l.gs+k], l.buf[l.ge:i])
	l.gs += k
	l.ge += k
	l.pad = max(l.pad, min(l.pad+n, maxColumn))
}

// deleteRunes deletes n runes at the write position (CSI P): the rest of
// the line moves left.
func (l *editLine) deleteRunes(n int) { l.dropRight(n) }

// insertBlanks inserts n blanks at the write position (CSI @): the rest
// of the line moves right; the write position stays. Blanks after the
// line's end change nothing, and the line never grows past its bound.
func (l *editLine) insertBlanks(n int) {
	n = min(n, l.max-l.len())
	if l.ge == len(l.buf) || n <= 0 {
		return
	}
	l.ensureGap(n)
	l.ge -= n
	for i := l.ge; i < l.ge+n; i++ {
		l.buf[i] = ' '
	}
}

// eraseRunes blanks n runes from the write position (CSI X) without
// moving it.
func (l *editLine) eraseRunes(n int) {
	before := len(l.buf) - l.ge
	l.dropRight(n)
	if l.ge == len(l.buf) {
		return // nothing after the erased runes: they end the line
	}
	l.insertBlanks(utf8.RuneCount(l.buf[len(l.buf)-before : l.ge]))
}

// toColumn moves the write position to column n (CSI G, 0-based).
func (l *editLine) toColumn(n int) {
	l.carriageReturn()
	l.forward(n)
}

// eraseToEnd erases from the write position to the end of the line.
func (l *editLine) eraseToEnd() { l.ge = len(l.buf) }

// eraseLine erases the whole line; the write position keeps its column,
// so text written next is preceded by blanks, as on a terminal.
func (l *editLine) eraseLine() {
	col := l.pad + utf8.RuneCount(l.left())
	l.dead, l.gs, l.ge = 0, 0, len(l.buf)
	l.pad = col
}
