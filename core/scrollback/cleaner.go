package scrollback

import (
	"encoding/binary"
	"strings"
	"unicode/utf8"
)

// The escape-stripping state machine. It follows the shape of the DEC
// ANSI parser: C0 controls inside CSI and ESC sequences still act, ESC
// always starts a new sequence (ending any string in progress), CAN and
// SUB abort a sequence, and string sequences end at BEL (OSC only) or ESC.
// The state lives in the cleaner between writes, so any chunking of a
// stream gives the same result as writing it whole.

type cleanState uint8

const (
	stGround cleanState = iota
	stEsc               // after ESC, possibly with intermediates
	stCSI               // inside ESC [ ... final
	stOSC               // inside ESC ] ... BEL or ESC
	stString            // inside DCS, SOS, PM or APC ... ESC
)

// maxOSC bounds the stored OSC payload; longer payloads are ignored (the
// markers we read are a few bytes).
const maxOSC = 4 << 10

// maxCSIParams bounds the stored CSI parameter bytes; only short ones
// (erase in line) matter.
const maxCSIParams = 8

// Byte classes of the ground-state fast path.
const (
	clText byte = iota // printable ASCII and tab: copied in runs
	clCtl              // C0 controls and DEL
	clHigh             // the start of a multi-byte sequence
)

var classOf = func() (t [256]byte) {
	for i := range t {
		switch {
		case i >= 0x80:
			t[i] = clHigh
		case i >= 0x20 && i < 0x7f, i == '\t':
			t[i] = clText
		default:
			t[i] = clCtl
		}
	}
	return t
}()

// textRunEnd returns the end of the run of clText bytes in p that starts
// at j (len(p) if the run reaches the end). It tests eight bytes at a time
// for a byte outside printable ASCII (a tab, which is text, sends its word
// to the byte loop): plain text is most of a terminal's output, and the
// loop over one byte at a time was the cleaner's largest cost in a flood.
func textRunEnd(p []byte, j int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for {
		for j+8 <= len(p) {
			x := binary.LittleEndian.Uint64(p[j:])
			below := (x - ones*0x20) &^ x & highs         // some byte < 0x20
			above := ((x + ones*(0x7f-0x7e)) | x) & highs // some byte > 0x7e
			if below|above != 0 {
				break
			}
			j += 8
		}
		end := min(j+8, len(p))
		for j < end && classOf[p[j]] == clText {
			j++
		}
		if j < end || j == len(p) {
			return j
		}
	}
}

const (
	bel = 0x07
	bs  = 0x08
	can = 0x18
	sub = 0x1a
	esc = 0x1b
	del = 0x7f
)

type cleaner struct {
	state   cleanState
	inter   bool // ESC sequence has intermediates
	pend    [utf8.UTFMax]byte
	npend   int // bytes of an incomplete rune carried to the next write
	params  [maxCSIParams]byte
	nparams int
	csiLong bool // CSI parameters overflowed params
	osc     []byte
	oscLong bool
}

var replacement = []byte(string(utf8.RuneError))

// run cleans p into b.
func (c *cleaner) run(b *Buffer, p []byte) {
	i := 0
	if c.npend > 0 {
		i = c.finishRune(b, p)
	}
	for i < len(p) {
		if c.state != stGround {
			i += c.sequence(b, p[i])
			continue
		}
		ch := p[i]
		switch classOf[ch] {
		case clText:
			j := textRunEnd(p, i+1)
			// The common case: a whole plain line on an empty current
			// line goes straight to storage.
			if j < len(p) && b.cur.empty() && j-i <= b.cur.max {
				if p[j] == '\n' {
					b.storeLine(p[i:j])
					i = j + 1
					continue
				}
				if p[j] == '\r' && j+1 < len(p) && p[j+1] == '\n' {
					b.storeLine(p[i:j])
					i = j + 2
					continue
				}
			}
			b.writeText(p[i:j])
			i = j
		case clHigh:
			if !utf8.FullRune(p[i:]) {
				c.npend = copy(c.pend[:], p[i:])
				return
			}
			r, w := utf8.DecodeRune(p[i:])
			c.emitRune(b, r, p[i:i+w])
			i += w
		default:
			if ch == '\r' && i+1 < len(p) && p[i+1] == '\n' {
				b.newline()
				i += 2
				continue
			}
			c.control(b, ch)
			i++
		}
	}
}

// finishRune completes a rune split across writes with the first bytes of
// p and returns how many bytes of p it used.
func (c *cleaner) finishRune(b *Buffer, p []byte) int {
	var tmp [utf8.UTFMax]byte
	n := copy(tmp[:], c.pend[:c.npend])
	k := copy(tmp[n:], p)
	s := tmp[:n+k]
	if !utf8.FullRune(s) {
		c.npend = copy(c.pend[:], s)
		return k
	}
	c.npend = 0
	r, w := utf8.DecodeRune(s)
	c.emitRune(b, r, s[:w])
	if w >= n {
		return w - n
	}
	// An invalid lead byte: the carried bytes after it are continuation
	// bytes, each its own invalid sequence, as a whole write sees them.
	for range s[w:n] {
		c.emitRune(b, utf8.RuneError, s[w:w+1])
	}
	return 0
}

func (c *cleaner) emitRune(b *Buffer, r rune, enc []byte) {
	if r == utf8.RuneError && len(enc) == 1 {
		b.stats.InvalidUTF8++
		enc = replacement
	}
	b.writeRune(enc)
}

// control acts on a C0 control or DEL outside a string sequence.
func (c *cleaner) control(b *Buffer, ch byte) {
	switch ch {
	case '\n':
		b.newline()
	case '\r':
		if !b.alt {
			b.cur.carriageReturn()
		}
	case bs:
		if !b.alt {
			b.cur.backspace()
		}
	case esc:
		c.state, c.inter = stEsc, false
	case can, sub:
		c.state = stGround
	}
}

// sequence consumes one byte inside an escape sequence. It returns 0 when
// the byte ends the sequence without belonging to it (the ground state
// then handles it), else 1.
func (c *cleaner) sequence(b *Buffer, ch byte) int {
	switch c.state {
	case stEsc:
		return c.escape(b, ch)
	case stCSI:
		return c.csi(b, ch)
	case stOSC:
		switch {
		case ch == bel:
			c.dispatchOSC(b)
			c.state = stGround
		case ch == esc:
			c.dispatchOSC(b)
			c.state, c.inter = stEsc, false
		case ch == can || ch == sub:
			c.state = stGround
		case ch < 0x20:
			// ignored inside the string
		case len(c.osc) < maxOSC:
			c.osc = append(c.osc, ch)
		default:
			c.oscLong = true
		}
	case stString:
		switch ch {
		case esc:
			c.state, c.inter = stEsc, false
		case can, sub:
			c.state = stGround
		}
	}
	return 1
}

func (c *cleaner) escape(b *Buffer, ch byte) int {
	switch {
	case ch >= 0x80:
		c.state = stGround
		return 0
	case ch == del:
	case ch < 0x20:
		c.control(b, ch)
	case ch < 0x30:
		c.inter = true
	case c.inter:
		c.state = stGround
	case ch == '[':
		c.state, c.nparams, c.csiLong = stCSI, 0, false
	case ch == ']':
		c.state, c.osc, c.oscLong = stOSC, c.osc[:0], false
	case ch == 'P', ch == 'X', ch == '^', ch == '_':
		c.state = stString
	default:
		c.state = stGround
		switch ch {
		case 'c': // RIS: a full reset leaves the alternate screen
			b.alt, b.paste, b.below, b.up, b.replay, b.saved, b.cursorHidden = false, PasteMode{}, 0, 0, b.replay[:0], false, false
		case '7', '8': // DECSC, DECRC
			b.saved = ch == '7'
		}
	}
	return 1
}

func (c *cleaner) csi(b *Buffer, ch byte) int {
	switch {
	case ch >= 0x80:
		c.state = stGround
		return 0
	case ch == del:
	case ch < 0x20:
		c.control(b, ch)
	case ch < 0x40:
		if c.nparams < len(c.params) {
			c.params[c.nparams] = ch
			c.nparams++
		} else {
			c.csiLong = true
		}
	default:
		c.state = stGround
		if !c.csiLong {
			c.edit(b, ch, string(c.params[:c.nparams]))
		}
	}
	return 1
}

// edit acts on the CSI sequences that edit the current line as a
// terminal edits its cursor row (line editors such as readline and
// prompt_toolkit redraw with them): erase in line (K) and in display
// from the cursor (J, which clears the rest of the row; rows below are
// not kept), cursor back (D), forward (C), to a column (G), up (A, see
// Buffer.cursorUp) and down (B, Buffer.cursorDown), delete (P), insert
// (@) and erase (X) characters.
// Other sequences, and these with parameters that are not a plain
// number, are dropped; on the alternate screen (set and reset with h
// and l) all of them are.
func (c *cleaner) edit(b *Buffer, final byte, params string) {
	if final == 'h' || final == 'l' {
		alt, paste, cursor := privateModes(params)
		if alt {
			b.alt = final == 'h'
			if b.alt {
				b.marks.Draws++
			}
		}
		if paste {
			b.paste = PasteMode{Bracketed: final == 'h'}
		}
		if cursor {
			b.cursorHidden = final == 'l'
		}
		if cursor && final == 'l' && b.paste.Bracketed {
			b.paste.Redraws = true
		}
		return
	}
	switch final {
	case 's', 'u': // SCOSC, SCORC
		if params == "" {
			b.saved = final == 's'
		}
	case 'H', 'f':
		if (b.alt || !b.saved) && addressesRow(params) {
			b.marks.Draws++
		}
	case 'J':
		if params == "2" {
			b.marks.Clears++
		}
	}
	if b.alt {
		return
	}
	up := b.up
	switch final {
	case 'C', 'D', 'G', 'm':
	default:
		b.up = 0 // a move along the row keeps a move up pending
	}
	switch final {
	case 'K', 'J':
		switch params {
		case "", "0":
			if final == 'J' && up > 0 {
				b.rewind(up)
				return
			}
			b.cur.eraseToEnd()
		case "2":
			if final == 'K' {
				b.cur.eraseLine()
			}
		}
	case 'D', 'C', 'G', 'A', 'B', 'P', '@', 'X':
		n, ok := csiCount(params)
		if !ok {
			return
		}
		switch final {
		case 'D':
			b.cur.back(n)
		case 'C':
			b.cur.forward(n)
		case 'G':
			b.cur.toColumn(n - 1)
		case 'A':
			b.cursorUp(n)
		case 'B':
			b.cursorDown(n)
		case 'P':
			b.cur.deleteRunes(n)
		case '@':
			b.cur.insertBlanks(n)
		case 'X':
			b.cur.eraseRunes(n)
		}
	}
}

// privateModes reports which of the modes the buffer follows a mode set
// or reset's parameters name (alone or among others, "?1;1049"): alt,
// the alternate screen (private modes 1049 or 1047; the old 47 is left
// out, as the screen emulator ignores it), paste, bracketed paste
// (2004), and cursor, the cursor's visibility (25).
func privateModes(params string) (alt, paste, cursor bool) {
	rest, ok := strings.CutPrefix(params, "?")
	if !ok {
		return false, false, false
	}
	for rest != "" {
		var mode string
		mode, rest, _ = strings.Cut(rest, ";")
		switch mode {
		case "1049", "1047":
			alt = true
		case "2004":
			paste = true
		case "25":
			cursor = true
		}
	}
	return alt, paste, cursor
}

// addressesRow reports whether a cursor position's parameters
// ("row;col") name a row other than the first.
func addressesRow(params string) bool {
	row, _, _ := strings.Cut(params, ";")
	n, ok := csiCount(row)
	return ok && n > 1
}

// csiCount reads a cursor move's count: empty or 0 is 1, and a count is
// capped at maxColumn (no terminal moves further). ok is false for
// parameters that are not a plain number.
func csiCount(params string) (n int, ok bool) {
	for i := 0; i < len(params); i++ {
		ch := params[i]
		if ch < '0' || ch > '9' {
			return 0, false
		}
		n = min(n*10+int(ch-'0'), maxColumn)
	}
	return max(n, 1), true
}
