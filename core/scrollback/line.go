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

// eraseToEnd erases from the write position to the end of the line.
func (l *editLine) eraseToEnd() { l.ge = len(l.buf) }

// eraseLine erases the whole line; the write position keeps its column,
// so text written next is preceded by blanks, as on a terminal.
func (l *editLine) eraseLine() {
	col := l.pad + utf8.RuneCount(l.left())
	l.dead, l.gs, l.ge = 0, 0, len(l.buf)
	l.pad = col
}
