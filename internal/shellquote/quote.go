// Package shellquote quotes text for a POSIX shell: the one quoting rule
// of every ptyseam module.
package shellquote

import "strings"

// Quote quotes s for a POSIX shell with single quotes: the result is one
// word whose value is s byte for byte (a single quote becomes the four
// characters ' \ ' '). Every word is quoted, even one of plain letters, so
// that a reserved word ("if", "done") or an assignment ("a=b") in a
// command's first position is run as a command, not parsed as syntax. s
// must not contain NUL, which no shell word can hold.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
