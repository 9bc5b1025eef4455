package gdbmi

import (
	"errors"
	"fmt"
	"strconv"
)

// ErrSyntax matches every [*SyntaxError] with errors.Is.
var ErrSyntax = errors.New("gdbmi: syntax error")

// SyntaxError reports malformed MI output and where it is.
type SyntaxError struct {
	// Line is the 1-based line number within the stream when the error
	// came from a [Framer] or [Reader], and 0 for [ParseLine].
	Line int64
	// Column is the 1-based byte column within the line.
	Column int
	// Msg says what was wrong.
	Msg string
	// Near holds up to 32 bytes of the line from the column on.
	Near string
}

// Error implements error.
func (e *SyntaxError) Error() string {
	s := "gdbmi: syntax error"
	if e.Line > 0 {
		s += " at line " + strconv.FormatInt(e.Line, 10) + ","
	} else {
		s += " at"
	}
	s += " column " + strconv.Itoa(e.Column) + ": " + e.Msg
	if e.Near != "" {
		s += " (near " + strconv.Quote(e.Near) + ")"
	}
	return s
}

// Is makes errors.Is(err, ErrSyntax) true.
func (e *SyntaxError) Is(target error) bool { return target == ErrSyntax }

func syntaxErrorf(s string, i int, format string, args ...any) *SyntaxError {
	if i > len(s) {
		i = len(s)
	}
	near := s[i:]
	if len(near) > 32 {
		near = near[:32]
	}
	return &SyntaxError{Column: i + 1, Msg: fmt.Sprintf(format, args...), Near: near}
}
