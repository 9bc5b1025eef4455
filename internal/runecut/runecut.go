// Package runecut cuts strings to a byte budget without splitting a UTF-8
// sequence: the one home of that rule for every ptyseam module (the
// scrollback's line tails, the tools' result bounds).
package runecut

import (
	"strings"
	"unicode/utf8"
)

// Head returns the longest prefix of s of at most n bytes that does not
// split a UTF-8 sequence.
func Head(s string, n int) string {
	if n >= len(s) {
		return s
	}
	if n <= 0 {
		return ""
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// Tail returns the longest suffix of s of at most n bytes that does not
// start inside a UTF-8 sequence.
func Tail(s string, n int) string {
	if n >= len(s) {
		return s
	}
	if n <= 0 {
		return ""
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// Named returns a caller's string as a message names it: at most its
// first n bytes as valid UTF-8, and "..." after it when it was cut. A
// caller may pass any bytes of any length (an id, a field name), and an
// error that names them stays short and printable.
func Named(s string, n int) string {
	if len(s) <= n {
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	return strings.ToValidUTF8(Head(s, n), "\uFFFD") + "..."
}
