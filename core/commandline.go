package core

import (
	"unicode/utf8"

	"github.com/ptyseam/ptyseam/core/scrollback"
)

// commandLine follows the text that keys (sends with NoSubmit) typed on a
// marked shell's command line without submitting it. A model that types
// "q" to a pager that already quit leaves the "q" there, and its next
// send runs "qls"; a send's result names such text (SendResult.CommandLine).
// The line is known only from a prompt that nothing followed yet, and
// while every byte typed since is plain text, Backspace or Ctrl-U; a
// cursor key, a completion or a submitted line makes it unknown until the
// shell's next prompt.
type commandLine struct {
	prompt uint64 // the prompt end (Marks.PromptEnds) the line belongs to
	text   []byte
	known  bool
}

// maxCommandLine bounds the text followed: a longer line is unknown.
const maxCommandLine = 1024

// typed takes in data written to the terminal now; keys says it was a
// NoSubmit send's (any other write makes the line unknown: a submitted
// line, a secret, a person's typing).
func (c *commandLine) typed(m scrollback.Marks, data []byte, keys bool) {
	if m.PromptEnds != c.prompt {
		*c = commandLine{prompt: m.PromptEnds, known: m.AtPrompt()}
	}
	if !keys {
		c.known = false
	}
	for i := 0; c.known && i < len(data); i++ {
		switch b := data[i]; {
		case printable(b) && len(c.text) < maxCommandLine:
			c.text = append(c.text, b)
		case b == 0x7f || b == '\b': // Backspace: the last character goes
			_, n := utf8.DecodeLastRune(c.text)
			c.text = c.text[:len(c.text)-n]
		case b == 0x15: // Ctrl-U: the line goes
			c.text = c.text[:0]
		default:
			c.known = false
		}
	}
}

// typedText returns data when it is plain text a line editor shows as
// typed (no control byte, valid UTF-8, at most maxCommandLine bytes), else
// "".
func typedText(data []byte) string {
	if len(data) > maxCommandLine || !utf8.Valid(data) {
		return ""
	}
	for _, b := range data {
		if !printable(b) {
			return ""
		}
	}
	return string(data)
}

// printable reports whether b is a byte a line editor shows as typed: no
// control byte and no Delete.
func printable(b byte) bool { return b >= ' ' && b != 0x7f }

// at returns the text on the command line of the newest prompt, or ""
// when the line is empty, unknown, or belongs to an older prompt.
func (c *commandLine) at(m scrollback.Marks) string {
	if !c.known || c.prompt != m.PromptEnds {
		return ""
	}
	return string(c.text)
}
