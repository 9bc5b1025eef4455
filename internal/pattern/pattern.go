// Package pattern is the one rule for the regular expressions a caller
// hands ptyseam to wait for, search with or filter by (pty_wait,
// pty_search, bg_launch's waitFor.line, bg_read's pattern): Go RE2
// syntax, at most MaxLen bytes. Each layer wraps the error in its own
// typed error naming the field.
package pattern

import (
	"fmt"
	"regexp"
)

// MaxLen bounds a caller's pattern in bytes: RE2 compiles in time linear
// in the pattern, and a bound keeps one caller's pattern (and the memory
// its program takes) small.
const MaxLen = 1024

// ErrTooLong is returned, wrapped, for a pattern over MaxLen bytes.
var ErrTooLong = fmt.Errorf("pattern longer than %d bytes", MaxLen)

// Compile checks and compiles p, case-insensitively when ignoreCase. An
// empty p gives a nil *regexp.Regexp and no error: the caller decides
// whether a pattern was required.
func Compile(p string, ignoreCase bool) (*regexp.Regexp, error) {
	if p == "" {
		return nil, nil
	}
	if len(p) > MaxLen {
		return nil, ErrTooLong
	}
	if ignoreCase {
		p = "(?i)" + p
	}
	return regexp.Compile(p)
}
