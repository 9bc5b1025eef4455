package testharness

import "github.com/ptyseam/ptyseam/testharness/internal/pattern"

// FloodLine returns line i (from 0) of the `flood` child's output, without
// its line end.
func FloodLine(i int) string { return pattern.FloodLine(i) }

// ParseFloodLine returns the number of a flood line and whether line is
// exactly one.
func ParseFloodLine(line string) (int, bool) { return pattern.ParseFloodLine(line) }

// VerifyBurst checks the complete output of `burst-exit BYTES`: after
// "\r\n" becomes "\n", it must be exactly the burst pattern followed by its
// checksum line. It returns BYTES, or an error wrapping [ErrBurst] that
// says where the output went wrong.
func VerifyBurst(out []byte) (int, error) { return pattern.VerifyBurst(out) }

// ErrBurst is wrapped by every error of [VerifyBurst].
var ErrBurst = pattern.ErrBurst
