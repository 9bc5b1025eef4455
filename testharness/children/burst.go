package main

import (
	"os"
	"strconv"

	"github.com/ptyseam/ptyseam/testharness/internal/pattern"
)

// runBurstExit writes the whole burst with one write and exits at once, so
// that most of it is still in the terminal's buffers when the process is
// gone.
func runBurstExit(args []string) int {
	if len(args) < 1 || len(args) > 2 {
		return fail("usage: burst-exit BYTES [CODE]")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 0 {
		return fail("burst-exit: bad byte count %q", args[0])
	}
	code := 0
	if len(args) == 2 {
		if code, err = strconv.Atoi(args[1]); err != nil || code < 0 || code > 255 {
			return fail("burst-exit: bad exit code %q", args[1])
		}
	}
	out := append(pattern.Burst(n), pattern.BurstTrailer(n)...)
	if _, err := os.Stdout.Write(out); err != nil {
		return 1
	}
	return code
}
