// Package inittrace reads the Go runtime's package initialization trace
// (GODEBUG=inittrace=1): what each package's initialization cost a
// program, in allocations and bytes. Tests use it to check that a
// package keeps costly work (reflection, tables) out of its init, which
// every program that links it pays.
package inittrace

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// Cost is what one package's initialization allocated.
type Cost struct {
	Bytes  uint64
	Allocs uint64
}

// Parse returns the cost of pkg's initialization from trace, a program's
// standard error under GODEBUG=inittrace=1, whose lines read
// "init PKG @T ms, D ms clock, B bytes, N allocs". It reports false when
// trace has no well-formed line for pkg (a package without init work has
// none).
func Parse(trace []byte, pkg string) (Cost, bool) {
	prefix := []byte("init " + pkg + " @")
	for len(trace) > 0 {
		var line []byte
		line, trace, _ = bytes.Cut(trace, []byte{'\n'})
		rest, ok := bytes.CutPrefix(line, prefix)
		if !ok {
			continue
		}
		parts := strings.Split(string(rest), ", ")
		if len(parts) != 4 {
			continue
		}
		b, okb := count(parts[2], " bytes")
		n, okn := count(parts[3], " allocs")
		if okb && okn {
			return Cost{Bytes: b, Allocs: n}, true
		}
	}
	return Cost{}, false
}

// count reads "N unit".
func count(s, unit string) (uint64, bool) {
	num, ok := strings.CutSuffix(s, unit)
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseUint(num, 10, 64)
	return v, err == nil
}

// MeasureTest runs the test binary (os.Args[0] in a test) with no test
// (-test.run=^$) and GODEBUG=inittrace=1, bounded by ctx, and returns
// the cost of pkg's initialization in it.
func MeasureTest(ctx context.Context, binary, pkg string) (Cost, error) {
	cmd := exec.CommandContext(ctx, binary, "-test.run=^$")
	godebug := "inittrace=1"
	if v := os.Getenv("GODEBUG"); v != "" {
		godebug = v + "," + godebug
	}
	cmd.Env = append(os.Environ(), "GODEBUG="+godebug)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return Cost{}, fmt.Errorf("inittrace: running %s: %w: %s", binary, err, stderr.Bytes())
	}
	c, ok := Parse(stderr.Bytes(), pkg)
	if !ok {
		return Cost{}, fmt.Errorf("inittrace: no initialization of %s in the trace:\n%s", pkg, stderr.Bytes())
	}
	return c, nil
}
