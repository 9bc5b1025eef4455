package screen

import (
	"encoding/binary"

	"github.com/charmbracelet/x/ansi/parser"
)

// queryScanner finds, in a session's raw output, the escape sequences a
// terminal answers: device attributes (CSI c, CSI > c), device status and
// cursor position reports (CSI n, CSI ? n), mode reports (CSI $ p), the
// in-band resize mode (CSI ? 2048 h) and colour queries (OSC 10/11/12 ; ?).
//
// It follows the same transition table as the emulator's parser
// (x/ansi/parser), so that every sequence the emulator would answer is
// found, across any split of the stream into chunks. It is deliberately
// generous: a hit that the emulator then does not answer only costs an
// early catch-up. Runs of plain ASCII, the bulk of most output, are
// skipped eight bytes at a time.
type queryScanner struct {
	state    parser.State
	utf8Left int // bytes of a UTF-8 sequence still to swallow (Utf8State)

	// CSI being collected.
	param   int  // the parameter being read
	digits  bool // a parameter digit was seen
	prefix  byte // private prefix ('?', '>', ...) or 0
	inter   byte // last intermediate byte or 0
	has2048 bool // a parameter equal to 2048 was seen
	has69   bool // a parameter equal to 69 was seen
	hasAlt  bool // a parameter equal to 1047 or 1049 was seen
	first   int  // the first parameter's value
	nparams int  // parameters ended so far

	// alt reports that the output so far left the terminal on the
	// alternate screen (CSI ? 1047/1049 h, until the matching l or a
	// reset), as full-screen programs do. The old CSI ? 47 h is left out,
	// as the emulator ignores it too.
	alt bool

	// drawn reports that the output since the shell's last prompt (OSC
	// 133;A) drew on the normal screen as a full-screen program does:
	// it cleared the screen (CSI 2 J) or put the cursor on a row other
	// than the first by its number (CSI row;col H). top does so without
	// taking the alternate screen.
	drawn bool

	// Margins the output set (see filter): top and bottom margins other
	// than the whole screen, or left and right margin mode.
	tbMargins bool
	lrMode    bool

	// OSC being collected.
	oscCmd    int  // the command number so far
	oscInCmd  bool // still reading the command's digits
	oscQuery  bool // a '?' was seen in the data
	oscLength int  // bytes of data seen
	oscFirst  byte // the first byte after the command number and ';'
}

const (
	esc = 0x1b
	// maxParam is the largest parameter value passed to the emulator (see
	// filter); the emulator's own parser does not bound them.
	maxParam = 65535
)

// scan advances over p and returns how many query sequences ended in it.
func (s *queryScanner) scan(p []byte) int {
	n := 0
	i := 0
	for i < len(p) {
		if s.state == parser.GroundState {
			i = skipPlain(p, i)
			if i >= len(p) {
				break
			}
		}
		b := p[i]
		i++
		if s.state == parser.Utf8State {
			s.utf8Left--
			if s.utf8Left <= 0 {
				s.state = parser.GroundState
			}
			continue
		}
		if hit, _ := s.step(b); hit {
			n++
		}
	}
	return n
}

// filter advances over p like scan and returns what the emulator should
// be fed instead of p, which is p itself unless something was left out:
//
//   - digits that would take a CSI parameter above maxParam. The
//     emulator's parser does not bound parameters, and it repeats work by
//     them: "CSI 99999999 b" (repeat the last character) keeps it busy for
//     minutes.
//   - lines of text that the rest of a long run of text scrolls off the
//     screen (see elisionCut), when the output set no margins. The
//     emulator pays for every scroll with a copy of the whole screen; a
//     flood of short lines runs at about 1 MB/s through it.
//
// rows is the screen's height (0 turns the elision off).
func (s *queryScanner) filter(p []byte, rows int) []byte {
	var out []byte
	kept := 0 // p[kept:] is not yet copied to out
	for i := 0; i < len(p); {
		if s.state == parser.GroundState {
			if rows > 0 && !s.tbMargins && !s.lrMode {
				if j, lastPrint := textRun(p, i); j-i >= minElide {
					if c := elisionCut(p[i:j], rows, lastPrint-i); c > 0 {
						out = append(out, p[kept:i]...)
						out = appendSGR(out, p[i:i+c])
						kept = i + c
					}
					i = j
					continue
				}
			}
			i = skipPlain(p, i)
			if i >= len(p) {
				break
			}
		}
		b := p[i]
		i++
		if s.state == parser.Utf8State {
			s.utf8Left--
			if s.utf8Left <= 0 {
				s.state = parser.GroundState
			}
			continue
		}
		if _, d := s.step(b); d {
			out = append(out, p[kept:i-1]...)
			kept = i
		}
	}
	if out == nil && kept == 0 {
		return p
	}
	return append(out, p[kept:]...)
}

// minElide is the shortest run of text worth looking at for lines to leave
// out.
const minElide = 4096

// plainText reports the bytes of plain text for the elision: printable
// ASCII and the controls that only move the cursor (CR, LF, TAB, BS) or
// ring (BEL). None of them changes a mode, the pen or the character set.
func plainText(b byte) bool {
	return b >= 0x20 && b <= 0x7e || b == '\r' || b == '\n' || b == '\t' || b == '\b' || b == 0x07
}

// textRun returns the end of the run of text starting at i (in the ground
// state), and the index of its last printable character (i-1 if none).
// Text is plain text and two complete CSI sequences without a private
// prefix, with parameters of at most five digits: SGR (ESC [ ... m, which
// sets the pen) and EL (ESC [ ... K, which erases in the cursor's row),
// the escapes of coloured output (ls, grep, compilers).
func textRun(p []byte, i int) (end, lastPrint int) {
	lastPrint = i - 1
	for i < len(p) {
		b := p[i]
		switch {
		case b >= 0x20 && b <= 0x7e:
			lastPrint = i
			i++
		case plainText(b):
			i++
		case b == esc:
			n := csiLen(p[i:])
			if n == 0 {
				return i, lastPrint
			}
			i += n
		default:
			return i, lastPrint
		}
	}
	return i, lastPrint
}

// csiLen returns the length of the SGR or EL sequence p starts with, or 0.
func csiLen(p []byte) int {
	if len(p) < 3 || p[0] != esc || p[1] != '[' {
		return 0
	}
	digits := 0
	for k := 2; k < len(p); k++ {
		switch c := p[k]; {
		case c >= '0' && c <= '9':
			if digits++; digits > 5 {
				return 0
			}
		case c == ';' || c == ':':
			digits = 0
		case c == 'm' || c == 'K':
			return k + 1
		default:
			return 0
		}
	}
	return 0
}

// appendSGR appends the SGR sequences of a run of text: leaving the text
// out, they still set the pen the rest is drawn with.
func appendSGR(out, run []byte) []byte {
	for i := 0; i < len(run); {
		if run[i] == esc {
			n := csiLen(run[i:])
			if run[i+n-1] == 'm' {
				out = append(out, run[i:i+n]...)
			}
			i += n
			continue
		}
		i++
	}
	return out
}

// elisionCut returns how many leading bytes of a run of text (see
// textRun) can be left out, keeping their SGR sequences, without changing
// what the emulator ends up with; 0 if none. lastPrint is the index of the
// run's last printable character.
//
// The cut is right after a CR LF, so the cursor is at column 0 there
// whatever came before, with no wrap pending. With no margins set, the
// line feeds of the rest move the cursor to the bottom row within rows-1
// of them and then scroll the whole screen once each; after 2*rows+1 of
// them every row the left-out text wrote or erased has scrolled off, and
// the cursor, the pen (the SGR sequences are kept), the modes and the
// screen are the same either way. The rest must also print a character,
// so that the character a later REP repeats is the same. A CR LF never
// occurs inside the run's escape sequences, so counting bytes backwards is
// safe.
func elisionCut(run []byte, rows, lastPrint int) int {
	need := 2*rows + 1
	lfs := 0
	for k := len(run) - 1; k >= 1; k-- {
		if run[k] != '\n' {
			continue
		}
		if lfs >= need && k < lastPrint && run[k-1] == '\r' {
			return k + 1
		}
		lfs++
	}
	return 0
}

// skipPlain returns the index of the first byte at or after i that can
// leave the ground state: ESC or a byte >= 0x80. Every other byte prints
// or executes and stays in ground.
func skipPlain(p []byte, i int) int {
	const high = 0x8080808080808080
	const escs = 0x1b1b1b1b1b1b1b1b
	const ones = 0x0101010101010101
	for i+8 <= len(p) {
		w := binary.LittleEndian.Uint64(p[i:])
		x := w ^ escs // a zero byte where w has ESC
		if w&high != 0 || (x-ones)&^x&high != 0 {
			break
		}
		i += 8
	}
	for i < len(p) && p[i] < 0x80 && p[i] != esc {
		i++
	}
	return i
}

// step feeds one byte (outside a UTF-8 sequence) and reports whether it
// completed a query, and whether it is a parameter digit beyond maxParam.
func (s *queryScanner) step(b byte) (hit, drop bool) {
	prev := s.state
	next, action := parser.Table.Transition(prev, b)

	switch action {
	case parser.ClearAction:
		s.param, s.digits, s.prefix, s.inter, s.has2048, s.has69, s.hasAlt = 0, false, 0, 0, false, false, false
		s.first, s.nparams = 0, 0
	case parser.PrefixAction:
		s.prefix = b
	case parser.StartAction:
		if next == parser.OscStringState {
			s.oscCmd, s.oscInCmd, s.oscQuery, s.oscLength, s.oscFirst = 0, true, false, 0, 0
		}
	case parser.ParamAction:
		if isCSI(prev) {
			drop = !s.addParam(b)
		}
	case parser.PutAction:
		if prev == parser.OscStringState {
			s.oscByte(b)
		}
	case parser.CollectAction:
		if next == parser.Utf8State {
			s.utf8Left = utf8Len(b) - 1
		} else if isCSI(prev) {
			s.inter = b
		}
	case parser.DispatchAction:
		switch {
		case isCSI(prev):
			hit = s.csiEnd(b)
		case prev == parser.OscStringState:
			hit = s.oscIsQuery()
			if s.oscCmd == 133 && s.oscFirst == 'A' { // a shell prompt starts
				s.drawn = false
			}
		case prev == parser.EscapeState && b == 'c': // RIS
			s.tbMargins, s.lrMode, s.alt, s.drawn = false, false, false, false
		}
	}
	if next == parser.Utf8State && s.utf8Left <= 0 {
		next = parser.GroundState
	}
	s.state = next
	return hit, drop
}

func isCSI(st parser.State) bool {
	return st == parser.CsiEntryState || st == parser.CsiParamState || st == parser.CsiIntermediateState
}

// addParam collects a parameter byte; it returns false for a digit that
// would take the parameter above maxParam (and then ignores it).
func (s *queryScanner) addParam(b byte) bool {
	switch {
	case b >= '0' && b <= '9':
		s.digits = true
		v := s.param*10 + int(b-'0')
		if v > maxParam {
			return false
		}
		s.param = v
	case b == ';' || b == ':':
		s.endParam()
	}
	return true
}

func (s *queryScanner) endParam() {
	if s.nparams == 0 {
		s.first = s.param
	}
	s.nparams++
	switch s.param {
	case 2048:
		s.has2048 = true
	case 69:
		s.has69 = true
	case 1047, 1049:
		s.hasAlt = true
	}
	s.param = 0
}

// csiEnd notes the margins a CSI ending in final sets and reports whether
// it may be answered.
func (s *queryScanner) csiEnd(final byte) bool {
	s.endParam()
	switch {
	case final == 'r' && s.prefix == 0 && s.inter == 0: // DECSTBM
		s.tbMargins = s.digits
	case (final == 'h' || final == 'l') && s.prefix == '?' && s.has69: // DECLRMM
		s.lrMode = final == 'h'
	}
	if (final == 'h' || final == 'l') && s.prefix == '?' && s.inter == 0 && s.hasAlt {
		s.alt = final == 'h'
	}
	if s.prefix == 0 && s.inter == 0 && !s.alt {
		switch final {
		case 'H', 'f': // CUP: a row other than the first, by number
			s.drawn = s.drawn || s.first > 1
		case 'J': // ED 2: the whole screen
			s.drawn = s.drawn || s.first == 2
		}
	}
	switch final {
	case 'c', 'n', 'p': // DA1/DA2, DSR/CPR, DECRQM
		return true
	case 'h':
		return s.has2048 // in-band resize notifications
	}
	return false
}

func (s *queryScanner) oscByte(b byte) {
	s.oscLength++
	if s.oscInCmd {
		if b >= '0' && b <= '9' && s.oscCmd < 1<<20 {
			s.oscCmd = s.oscCmd*10 + int(b-'0')
			return
		}
		s.oscInCmd = false
	} else if s.oscLength == s.oscCmdLen()+2 {
		s.oscFirst = b // the first byte after "cmd;"
	}
	if b == '?' {
		s.oscQuery = true
	}
}

// oscCmdLen is how many digits the OSC's command number has.
func (s *queryScanner) oscCmdLen() int {
	n := 1
	for v := s.oscCmd; v >= 10; v /= 10 {
		n++
	}
	return n
}

// oscIsQuery reports whether the OSC just ended asks for a colour.
func (s *queryScanner) oscIsQuery() bool {
	return s.oscQuery && (s.oscCmd == 10 || s.oscCmd == 11 || s.oscCmd == 12)
}

// utf8Len is the length of the UTF-8 sequence a lead byte starts, as the
// emulator's parser counts it.
func utf8Len(b byte) int {
	switch {
	case b >= 0xC0 && b <= 0xDF:
		return 2
	case b >= 0xE0 && b <= 0xEF:
		return 3
	case b >= 0xF0 && b <= 0xF7:
		return 4
	}
	return 1
}
