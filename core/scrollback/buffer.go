package scrollback

// Buffer is a bounded store of cleaned, numbered lines. It is not safe for
// concurrent use; callers serialise access.
type Buffer struct {
	lim   Limits
	clean cleaner
	cur   editLine
	ring  lineRing
	first int64 // number of the oldest retained line
	// held counts blank lines terminated but not yet stored: a program
	// that reserves rows below its prompt (prompt_toolkit prints newlines,
	// then moves the cursor back up) takes them back with the move, so
	// they never reach a reader. Text, a stored line or a prompt marker
	// stores them.
	held int
	// readTo is completed() when a reader last took lines (a page, or
	// a cursor at the end): a line stored since can still be reopened
	// by a cursor move, one a reader holds cannot.
	readTo int64
	// alt: a program drew on the alternate screen (CSI ? 1049 h or
	// 1047 h), whose text is not part of the transcript, as it is not
	// part of a terminal's scrollback: it is counted in the marks and
	// dropped, until the program leaves it (l), a reset (ESC c), or the
	// shell's prompt marker (133;A or D) after a program that never left.
	alt bool
	// cursorHidden: the program hid the cursor (CSI ? 25 l) and has not
	// shown it since (h) nor reset the terminal (ESC c).
	cursorHidden bool
	// saved: a cursor position was saved (ESC 7 or CSI s) and not yet
	// restored (ESC 8 or CSI u). A row addressed in between is a status
	// line drawn over a command's lines (apt's progress), not a screen:
	// on the normal screen it is no draw (Marks.Draws).
	saved bool
	// below counts the rows under the cursor that moves up left (at most
	// maxHeld): a move down (CSI B) goes back into them, a newline
	// takes one.
	below int
	// up is a move up (CSI n A) that could not act alone, kept until the
	// next change: an erase below (CSI J) after it rewinds (see rewind);
	// moves along the row keep it, anything else drops it.
	up int
	// replay holds the rows a rewind could not take back because a
	// reader took them, oldest first: a line that completes equal to the
	// first is that row drawn again and is not stored twice.
	replay [][]byte
	// paste: how the program reads a paste (PasteMode).
	paste PasteMode
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
	s.Bytes = b.ring.bytes + lineLen(b.cur.shown())
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
	b.readTo = b.completed()
	if b.cur.len() == 0 {
		return Cursor{next: b.completed()}
	}
	t := b.cur.shown().String()
	return Cursor{next: b.completed(), col: len(t), prefix: t, open: true}
}

// PasteMode is how the program on the terminal reads pasted text, as its
// output shows.
type PasteMode struct {
	// Bracketed: the program asked for bracketed paste (CSI ? 2004 h, and
	// not l or a reset since): it reads text between ESC [200~ and
	// ESC [201~ as pasted, not typed.
	Bracketed bool
	// Redraws: since it asked, it hid the cursor (CSI ? 25 l), as line
	// editors that redraw their whole input do (prompt_toolkit's IPython,
	// Python's REPL from 3.13, irb's reline). These indent by themselves
	// and insert a paste as it is. GNU readline (bash, gdb, sqlite3, bc)
	// hides no cursor; it reads a paste as one line and redraws it over
	// several rows.
	Redraws bool
}

// PasteMode returns how the program on the terminal reads pasted text.
func (b *Buffer) PasteMode() PasteMode { return b.paste }

// CursorHidden reports whether the program hid the cursor (CSI ? 25 l)
// and has not shown it since: a dialog with an entry field shows it, one
// that asks a question with buttons (pinentry's confirmations) hides it.
func (b *Buffer) CursorHidden() bool { return b.cursorHidden }

// AltScreen reports whether a program holds the alternate screen (CSI ?
// 1049 h or 1047 h), whose text the buffer does not keep.
func (b *Buffer) AltScreen() bool { return b.alt }

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
// trimmed; a blank line is held (see Buffer.held).
func (b *Buffer) newline() {
	b.up = 0
	if b.alt {
		b.marks.TextSincePromptEnd++
		return
	}
	b.below = max(b.below-1, 0)
	if len(b.replay) > 0 && b.replayed([]byte(b.cur.text())) {
		b.cur.reset()
		return
	}
	left, right := b.cur.left(), trimBlanks(b.cur.right())
	if len(right) == 0 {
		left = trimBlanks(left)
	}
	if len(left) == 0 && len(right) == 0 {
		b.cur.reset()
		b.hold()
		return
	}
	b.storeHeld()
	rec := b.ring.store(left, right)
	b.cur.reset()
	b.push(rec)
}

// storeLine stores s, plain text no longer than a line may be, as a whole
// line: the same as writing it to the empty current line and a newline.
func (b *Buffer) storeLine(s []byte) {
	b.up = 0
	b.marks.TextSincePromptEnd += int64(len(s))
	if b.alt {
		b.marks.TextSincePromptEnd++
		return
	}
	b.below = max(b.below-1, 0)
	if len(b.replay) > 0 && b.replayed(s) {
		return
	}
	s = trimBlanks(s)
	if len(s) == 0 {
		b.hold()
		return
	}
	b.storeHeld()
	b.push(b.ring.store(s, nil))
}

// maxHeld bounds the blank lines held back: more than any terminal has
// rows, so a reservation fits and a flood of newlines is stored as it
// comes.
const maxHeld = 512

// hold terminates a blank line without storing it yet.
func (b *Buffer) hold() {
	b.marks.TextSincePromptEnd++
	if b.held == maxHeld {
		b.store(b.ring.store(nil, nil))
		return
	}
	b.held++
}

// storeHeld stores the blank lines held back.
func (b *Buffer) storeHeld() {
	for ; b.held > 0; b.held-- {
		b.store(b.ring.store(nil, nil))
	}
}

// cursorUp moves the cursor n rows up (CSI A) from a blank line, as
// programs that redraw below a line do (prompt_toolkit reserves rows
// under its prompt and moves back; progress lines are printed, then
// rewritten from the row below). The rows it leaves stay blank on a
// terminal, so the move takes back held blank lines; a move that ends
// one row above them reopens the newest stored line at the same column,
// unless a reader took that line already. Any other move cannot edit
// stored lines and is ignored. A move from a line with text is ignored.
func (b *Buffer) cursorUp(n int) {
	b.up = 0
	if !b.cur.blank() {
		b.up = n
		return
	}
	k := min(n, b.held)
	reopen := n-k == 1 && b.ring.count > 0 && b.completed() > b.readTo
	if k == 0 && !reopen {
		b.up = n
		return
	}
	col := b.cur.column()
	b.held -= k
	b.below = min(b.below+k, maxHeld-1)
	if reopen {
		b.below++
		b.cur.load(b.ring.popNewest())
	} else {
		b.cur.reset()
	}
	b.cur.forward(col)
}

// rewind acts on an erase below (CSI J) that follows a move up of n rows
// that could not act alone: it is how line editors redraw an input of
// several rows (prompt_toolkit moves to the input's first row, erases
// everything below and draws the input again). The rows above the
// cursor are the held blank lines, then the stored lines, newest first;
// the current line and the n-1 rows under the target are dropped, the
// target row becomes the current line, erased from the cursor's column.
// It needs the stored rows it drops to be the newest and untaken by a
// reader (numbers never go back for a reader); otherwise the erase acts
// on the current line alone.
func (b *Buffer) rewind(n int) {
	col := b.cur.column()
	m := n - b.held // stored rows to go up into
	if m > 0 && m <= maxReplay && m <= b.ring.count && b.held == 0 && b.completed()-int64(m) < b.readTo {
		b.replayRows(m, col)
		return
	}
	if m > 0 && (m > b.ring.count || b.completed()-int64(m) < b.readTo) {
		b.cur.eraseToEnd()
		return
	}
	if m <= 0 {
		b.held -= n
		b.cur.reset()
	} else {
		b.held = 0
		for range m - 1 {
			b.ring.popNewest()
		}
		b.cur.load(b.ring.popNewest())
	}
	b.below = 0
	b.cur.forward(col)
	b.cur.eraseToEnd()
}

// maxReplay bounds the rows a redraw may draw again (an input editor's
// rows, not a screen's history).
const maxReplay = 64

// replayRows is a rewind of m stored rows that a reader took: they stay,
// and the redraw that follows writes them again. The current line
// becomes the target row up to the cursor's column, and the rows are
// kept in replay: each line that completes equal to the next of them is
// dropped (newline).
func (b *Buffer) replayRows(m, col int) {
	b.replay = b.replay[:0]
	for i := b.ring.count - m; i < b.ring.count; i++ {
		b.replay = append(b.replay, append([]byte(nil), b.ring.at(i)...))
	}
	b.below = 0
	b.cur.load(b.replay[0])
	b.cur.forward(col)
	b.cur.eraseToEnd()
}

// replayed reports whether the line that completes with text is the next
// row of replay drawn again, and takes that row; any other line ends the
// replay.
func (b *Buffer) replayed(text []byte) bool {
	if len(b.replay) == 0 {
		return false
	}
	if string(trimBlanks(text)) != string(b.replay[0]) {
		b.replay = b.replay[:0]
		return false
	}
	b.replay = b.replay[1:]
	b.marks.TextSincePromptEnd++
	return true
}

// cursorDown moves the cursor n rows down (CSI B) into the rows a move up
// left below it (cursorUp), as line editors that redraw a block of
// several lines do (Python's REPL writes a line, moves back to its
// start and down to the next): the current line ends as at a newline,
// and the cursor keeps its column on the row below. Rows below that no
// move up left are not known, and a move into them is ignored.
func (b *Buffer) cursorDown(n int) {
	b.up = 0
	for range min(n, b.below) {
		col := b.cur.column()
		b.newline()
		b.cur.forward(col)
	}
}

// push appends a completed line, dropping the oldest to make room.
func (b *Buffer) push(rec []byte) {
	b.marks.TextSincePromptEnd++
	b.store(rec)
}

// store appends a completed line without counting it in the marks.
func (b *Buffer) store(rec []byte) {
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
	b.up = 0
	if b.alt {
		b.marks.TextSincePromptEnd += int64(len(s))
		return
	}
	if b.held > 0 && len(trimBlanks(s)) > 0 {
		b.storeHeld()
	}
	b.marks.TextSincePromptEnd += int64(len(s))
	b.cur.writeASCII(s)
	b.enforce()
}

// writeRune writes one encoded multi-byte rune to the current line.
func (b *Buffer) writeRune(enc []byte) {
	b.up = 0
	if b.alt {
		b.marks.TextSincePromptEnd += int64(len(enc))
		return
	}
	b.storeHeld()
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
