package main

import (
	"bufio"
	"os"
	"strconv"

	"github.com/ptyseam/ptyseam/testharness/internal/pattern"
)

func runFlood(args []string) int {
	if len(args) != 1 {
		return fail("usage: flood N")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 0 {
		return fail("flood: bad line count %q", args[0])
	}
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	for i := range n {
		_, _ = w.WriteString(pattern.FloodLine(i))
		_ = w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		return 1
	}
	return 0
}
