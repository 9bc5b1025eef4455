package ptysession

import "regexp"

// MaxWaitPattern bounds a regular expression a caller waits for or
// searches with (pty_wait's conditions, pty_search, bg_launch's
// waitFor.line), in bytes.
const MaxWaitPattern = 1024

// CompileWaitPattern checks and compiles a wait pattern: at most
// MaxWaitPattern bytes (and not empty when required), in Go RE2 syntax.
// An empty pattern that is not required gives a nil Regexp. Errors are
// INVALID_ARGUMENT naming field, the same for every caller.
func CompileWaitPattern(field, pattern string, required bool) (*regexp.Regexp, error) {
	switch {
	case required && (pattern == "" || len(pattern) > MaxWaitPattern):
		return nil, invalid("", "", field, "must be 1 to %d bytes", MaxWaitPattern)
	case len(pattern) > MaxWaitPattern:
		return nil, invalid("", "", field, "must be at most %d bytes", MaxWaitPattern)
	case pattern == "":
		return nil, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, invalid("", "", field, "%v", err)
	}
	return re, nil
}
