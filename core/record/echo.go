package record

import (
	"bytes"
	"regexp"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// Which input is a secret. The terminal's modes tell for some input
// (core.Event.Echo): a hidden line (EchoHidden) is a secret, and the
// service withholds its bytes; input the terminal echoes itself (EchoOn)
// is on the screen. For the rest the program decides what it shows: in
// raw mode (EchoByProgram: a line editor, a full-screen program, a prompt
// printing '*' per key, an ssh client whose far side decides) and when
// the backend cannot read the modes (EchoUnknown: a remote shell). There
// the recorder judges input by its effect: input whose text does not come
// back as the output that follows it was not shown, and is recorded as
// HiddenInput. A recording so never holds typed text its output did not
// show. And whatever the modes, input typed on a line that reads like a
// secret prompt (secretPrompt) is hidden.

// secretPrompt matches the end of a line that asks for a secret: a word
// naming one, then a colon, then only mask characters ("Password: ",
// "[sudo] password for ann: ***", "Enter passphrase for key 'k': ",
// "? API key: ****", "PIN: ").
var secretPrompt = regexp.MustCompile(`(?i)(password|passphrase|passcode|passwd|\bpin\b|secret|token|api[ _-]?key|one[ -]time|\botp\b|verification code)[^\n]{0,120}:\s*[*•●]*\s*$`)

// tailBytes is how much of the output's end a recording keeps to read the
// line an input is typed on.
const tailBytes = 512

// echoWait bounds how long after an input its echo may start to arrive,
// and heldBytes how much output a recording holds back while it waits:
// past either, input not yet shown is judged hidden.
const (
	echoWait  = 2 * time.Second
	heldBytes = 64 << 10
)

// keepTail keeps the end of the output written, for atSecretPrompt.
func (x *rec) keepTail(b []byte) {
	if len(b) >= tailBytes {
		x.tail = append(x.tail[:0], b[len(b)-tailBytes:]...)
		return
	}
	if over := len(x.tail) + len(b) - tailBytes; over > 0 {
		x.tail = x.tail[:copy(x.tail, x.tail[over:])]
	}
	x.tail = append(x.tail, b...)
}

// atSecretPrompt reports whether the output written so far ends on a line
// that asks for a secret.
func (x *rec) atSecretPrompt() bool {
	var sc textScan
	line := make([]byte, 0, len(x.tail))
	for _, c := range x.tail {
		switch k := sc.next(c); k {
		case textChar:
			line = append(line, c)
		case textNewline, textReturn:
			line = line[:0]
		case textBackspace:
			if len(line) > 0 {
				line = line[:len(line)-1]
			}
		}
	}
	return secretPrompt.Match(line)
}

// hasText reports whether input holds text (printable characters outside
// escape sequences): keys such as Enter, arrows or Ctrl-C carry no secret.
func hasText(data []byte) bool {
	var sc textScan
	for _, c := range data {
		if sc.next(c) == textChar {
			return true
		}
	}
	return false
}

// inputLines returns the text of each line of input (printable
// characters, without escape sequences and control keys), non-empty ones
// only.
func inputLines(data []byte) [][]byte {
	var (
		sc    textScan
		lines [][]byte
		cur   []byte
	)
	for _, c := range data {
		switch sc.next(c) {
		case textChar:
			cur = append(cur, c)
		case textNewline, textReturn:
			if len(cur) > 0 {
				lines = append(lines, cur)
				cur = nil
			}
		}
	}
	if len(cur) > 0 {
		lines = append(lines, cur)
	}
	return lines
}

// echoJudge decides whether an input was shown by the output that
// follows it: each of its lines must come in the output's text in order
// (the program may print before, between and after them: a prompt
// redrawn, a command's output), the first one starting on the line it was
// typed on (before the output's first newline), and input shorter than
// shortInput (a key or two) must be the first text the output shows. The output is judged
// only up to the next input, and for echoWait and heldBytes at most.
type echoJudge struct {
	ev      core.Event
	lines   [][]byte
	sc      textScan
	text    []byte // the text of the output after the input, so far
	lineEnd int    // len(text) at the output's first newline; -1 before
	fed     int    // bytes of held output judged
}

// shortInput is the length from which an input's first line may come
// after other text in the output: shorter, it must come first.
const shortInput = 4

// verdicts of an echoJudge.
const (
	undecided = iota
	shown
	hidden
)

func newEchoJudge(ev core.Event) *echoJudge {
	return &echoJudge{ev: ev, lines: inputLines(ev.Data), lineEnd: -1}
}

// feed judges more of the output that follows the input.
func (j *echoJudge) feed(b []byte) {
	j.fed += len(b)
	for _, c := range b {
		switch j.sc.next(c) {
		case textChar:
			if len(j.text) < heldBytes {
				j.text = append(j.text, c)
			}
		case textNewline:
			if j.lineEnd < 0 {
				j.lineEnd = len(j.text)
			}
		}
	}
}

// verdict judges the output fed so far; final says no more output will
// count (the next input came, the wait ended, the recording ends).
func (j *echoJudge) verdict(final bool) int {
	rest := j.text
	for i, l := range j.lines {
		if i > 0 {
			k := bytes.Index(rest, l)
			if k < 0 {
				if final {
					return hidden
				}
				return undecided
			}
			rest = rest[k+len(l):]
			continue
		}
		// The first line's echo starts on the line it was typed on:
		// before the output's first newline.
		line, ended := j.text, j.lineEnd >= 0
		if ended {
			line = j.text[:j.lineEnd]
		}
		if len(l) < shortInput {
			// A key or two: the output must start with it, not merely
			// hold it (a masked prompt's redraw holds letters).
			if !bytes.HasPrefix(j.text, l) || len(line) == 0 && ended {
				if !final && !ended && bytes.HasPrefix(l, j.text) {
					return undecided // the echo may still be on its way
				}
				return hidden
			}
			rest = j.text[len(l):]
			continue
		}
		k := bytes.Index(j.text, l)
		switch {
		case k < 0 && !final:
			return undecided // the echo may still be on its way (wrapped)
		case k < 0 || k >= len(line) && ended:
			return hidden
		}
		rest = j.text[k+len(l):]
	}
	return shown
}

// textScan tells text from escape sequences and control characters in a
// stream of terminal bytes, one byte at a time.
type textScan struct{ st uint8 }

// Kinds of bytes textScan.next reports.
const (
	textNone      = iota // part of an escape sequence, or another control
	textChar             // a printable character's byte (UTF-8 included)
	textNewline          // \n
	textReturn           // \r
	textBackspace        // \b
)

// States of textScan.
const (
	scanGround    = iota
	scanEsc       // after ESC
	scanInter     // ESC and intermediate bytes
	scanCSI       // ESC [
	scanString    // ESC ] (OSC), ESC P, ESC X, ESC ^, ESC _: until BEL or ST
	scanStringEsc // ESC within a string
	scanSS3       // ESC O: one more byte
)

func (s *textScan) next(c byte) int {
	switch s.st {
	case scanEsc:
		switch {
		case c == '[':
			s.st = scanCSI
		case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
			s.st = scanString
		case c == 'O':
			s.st = scanSS3
		case c >= 0x20 && c <= 0x2f:
			s.st = scanInter
		default:
			s.st = scanGround
		}
		return textNone
	case scanInter:
		if c < 0x20 || c > 0x2f {
			s.st = scanGround
		}
		return textNone
	case scanCSI:
		if c == 0x1b {
			s.st = scanEsc
		} else if c >= 0x40 && c <= 0x7e {
			s.st = scanGround
		}
		return textNone
	case scanString:
		if c == 0x07 {
			s.st = scanGround
		} else if c == 0x1b {
			s.st = scanStringEsc
		}
		return textNone
	case scanStringEsc:
		s.st = scanGround // ST (ESC \) or an aborted string
		return textNone
	case scanSS3:
		s.st = scanGround
		return textNone
	}
	switch {
	case c == 0x1b:
		s.st = scanEsc
		return textNone
	case c == '\n':
		return textNewline
	case c == '\r':
		return textReturn
	case c == '\b':
		return textBackspace
	case c < 0x20 || c == 0x7f:
		return textNone
	}
	return textChar
}
