package gdbmi

import (
	"strings"
	"testing"
)

// TestProgramTerminalIsControlling: the program's terminal is its
// controlling terminal (it opens /dev/tty and is the foreground group), a
// Ctrl-C written to it stops the program in gdb with SIGINT and the
// terminal lives on, across re-runs, and nothing but the program's output
// appears on it.
func TestProgramTerminalIsControlling(t *testing.T) {
	c, svc := startGDB(t, "tty", Options{})
	ctx := testCtx(t)
	pt := newProgramTap(t, c, svc)
	var all strings.Builder
	for run := 0; run < 2; run++ {
		if err := c.Run(ctx); err != nil {
			t.Fatal(err)
		}
		out := pt.waitFor(ctx, "foreground=")
		out += pt.waitFor(ctx, "\n")
		all.WriteString(out)
		if !strings.Contains(out, "tty: isatty=1 devtty=yes foreground=yes") {
			t.Fatalf("run %d: program reported %q", run, out)
		}
		if _, err := c.WriteProgram(ctx, []byte("hello\n")); err != nil {
			t.Fatal(err)
		}
		all.WriteString(pt.waitFor(ctx, "got <hello>"))
		// Ctrl-C on the program's terminal: the program stops in gdb.
		if _, err := c.WriteProgram(ctx, []byte{3}); err != nil {
			t.Fatal(err)
		}
		st, err := c.WaitStopped(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Reason != "signal-received" || st.SignalName != "SIGINT" {
			t.Fatalf("run %d: stop %+v", run, st)
		}
		if err := c.Continue(ctx); err != nil {
			t.Fatal(err)
		}
		// The terminal still works: a line, then end of input.
		if _, err := c.WriteProgram(ctx, []byte("after\n")); err != nil {
			t.Fatalf("run %d: write after Ctrl-C: %v", run, err)
		}
		all.WriteString(pt.waitFor(ctx, "got <after>"))
		if _, err := c.WriteProgram(ctx, []byte{4}); err != nil {
			t.Fatal(err)
		}
		all.WriteString(pt.waitFor(ctx, "tty done"))
		st, err = c.WaitStopped(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Reason != "exited-normally" {
			t.Fatalf("run %d: stop %+v", run, st)
		}
	}
	// Only the program's own output (and the terminal's echo of its input).
	for _, l := range strings.Split(all.String(), "\n") {
		// The terminal echoes Ctrl-C and Ctrl-D as ^C and ^D.
		l = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(l), "^C"), "^D")
		switch {
		case l == "", l == "hello", l == "after",
			strings.HasPrefix(l, "tty:"), strings.HasPrefix(l, "got <"), l == "tty done":
		default:
			t.Errorf("not the program's output on its terminal: %q", l)
		}
	}
}
