package procfs

import "errors"

// UnsupportedError is what a reader returns on a platform without /proc
// (Windows): the information it reads does not exist there. It matches
// errors.ErrUnsupported, so callers test for it with errors.Is and fall
// back to what the platform has.
type UnsupportedError struct {
	// Op names the reader that was called, e.g. "ReadFile".
	Op string
}

// Error says which reader has nothing to read on this platform.
func (e *UnsupportedError) Error() string {
	return "procfs: " + e.Op + " is not supported on this platform (no /proc)"
}

// Unwrap returns errors.ErrUnsupported.
func (e *UnsupportedError) Unwrap() error { return errors.ErrUnsupported }
