package gdbmi

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// TestOutputCompleteAtExit runs a program to its exit 200 times and reads
// its terminal right after WaitStopped reported the exit, without waiting:
// every run's whole output is there. The program is linked statically:
// gdb then loads no shared library's symbols, and a run takes about 20 ms
// instead of 130.
func TestOutputCompleteAtExit(t *testing.T) {
	requireTools(t)
	c, _ := startGDB(t, "", Options{Program: compile(t, "lines", "-static")})
	ctx := testCtx(t)
	const runs, block = 200, 22
	prev := ""
	for i := 1; i <= runs; i++ {
		if err := c.Run(ctx); err != nil {
			t.Fatal(err)
		}
		st, err := c.WaitStopped(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Reason != "exited-normally" {
			t.Fatalf("run %d: stop %q", i, st.Reason)
		}
		page, err := c.ProgramOutput(core.PageRequest{Newest: true, Count: block})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != int64(i*block) || len(page.Lines) != block {
			t.Fatalf("run %d: %d lines in all, want %d (newest: %q)", i, page.Total, i*block, page.Lines)
		}
		pid := strings.TrimPrefix(page.Lines[0], "begin ")
		if _, err := strconv.Atoi(pid); err != nil || pid == prev {
			t.Fatalf("run %d: first line %q (previous run's pid %s)", i, page.Lines[0], prev)
		}
		prev = pid
		for n := 0; n < 20; n++ {
			if want := fmt.Sprintf("%s line %02d abcdefghijklmnopqrstuvwxyz0123456789", pid, n); page.Lines[n+1] != want {
				t.Fatalf("run %d: line %d %q, want %q", i, n+1, page.Lines[n+1], want)
			}
		}
		if page.Lines[block-1] != "end "+pid {
			t.Fatalf("run %d: last line %q", i, page.Lines[block-1])
		}
	}
}
