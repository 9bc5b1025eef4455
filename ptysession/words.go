package ptysession

import (
	"strings"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/shellquote"
)

// SplitCommand splits a command line into argv the way a POSIX shell
// splits words, without any expansion: blanks (space, tab, newline)
// separate words; single quotes keep everything up to the next single
// quote; double quotes keep everything up to the next unescaped double
// quote, where a backslash escapes only $, `, ", \ and a newline (a
// backslash-newline pair disappears); outside quotes a backslash keeps the
// next character (a backslash-newline pair disappears). A pair of quotes with nothing
// between them makes an empty word. $VAR, globs, ~ and operators such as | and ; are plain text:
// no shell runs. An unterminated quote, a trailing backslash or a NUL byte
// is an INVALID_ARGUMENT error.
func SplitCommand(s string) ([]string, error) {
	if strings.IndexByte(s, 0) >= 0 {
		return nil, &core.Error{Code: core.CodeInvalidArgument, Msg: "command: contains a NUL byte"}
	}
	var (
		args   []string
		word   strings.Builder
		inWord bool
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\n':
			if inWord {
				args = append(args, word.String())
				word.Reset()
				inWord = false
			}
		case '\\':
			if i+1 >= len(s) {
				return nil, &core.Error{Code: core.CodeInvalidArgument, Msg: "command: ends with a backslash"}
			}
			i++
			if s[i] != '\n' {
				word.WriteByte(s[i])
				inWord = true
			}
		case '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, &core.Error{Code: core.CodeInvalidArgument, Msg: "command: unterminated single quote"}
			}
			word.WriteString(s[i+1 : i+1+end])
			inWord = true
			i += end + 1
		case '"':
			j, err := doubleQuoted(s, i+1, &word)
			if err != nil {
				return nil, err
			}
			inWord = true
			i = j
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		args = append(args, word.String())
	}
	return args, nil
}

// doubleQuoted appends the double-quoted text starting at s[i] to word and
// returns the index of the closing quote.
func doubleQuoted(s string, i int, word *strings.Builder) (int, error) {
	for ; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return i, nil
		case '\\':
			if i+1 < len(s) {
				switch s[i+1] {
				case '$', '`', '"', '\\':
					word.WriteByte(s[i+1])
					i++
					continue
				case '\n':
					i++
					continue
				}
			}
			word.WriteByte(c)
		default:
			word.WriteByte(c)
		}
	}
	return 0, &core.Error{Code: core.CodeInvalidArgument, Msg: "command: unterminated double quote"}
}

// JoinCommand quotes the arguments that need it and joins them with
// spaces (see shellquote.JoinBare: plain words stay bare, a first word a
// shell would parse as syntax is quoted), so that SplitCommand and a POSIX
// shell give args back.
func JoinCommand(args []string) string { return shellquote.JoinBare(args) }
