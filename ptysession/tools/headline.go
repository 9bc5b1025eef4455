package tools

import "strings"

// MaxHeadlineBytes bounds a [Headline].
const MaxHeadlineBytes = 240

// Headline returns the first line of a result's text rendering, at most
// MaxHeadlineBytes long: the bracketed summary every tool's rendering
// starts with ("[prompt; command exit code 0]",
// "screen 24x80, cursor row 3 col 0"). A server that carries the payload
// in a result's structured content sends the headline as its text, so
// that the payload is sent once.
func Headline(text string) string {
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	if len(text) > MaxHeadlineBytes {
		text = HeadRunes(text, MaxHeadlineBytes-3) + "..."
	}
	return text
}
