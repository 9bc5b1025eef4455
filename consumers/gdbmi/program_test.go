package gdbmi

import (
	"context"
	"errors"
	"regexp"
	"testing"
	"time"
)

// TestWaitProgramOutput waits for the program's lines one after the other,
// consuming each, and for a line that never comes until ctx ends.
func TestWaitProgramOutput(t *testing.T) {
	c, _ := startGDB(t, "tty", Options{})
	ctx := testCtx(t)
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	m, err := c.WaitProgramOutput(ctx, regexp.MustCompile(`devtty=(\w+)`))
	if err != nil || len(m.Groups) != 2 || m.Groups[1] != "yes" {
		t.Fatalf("first line: %+v %v", m, err)
	}
	for _, word := range []string{"one", "two"} {
		if _, err := c.WriteProgram(ctx, []byte(word+"\n")); err != nil {
			t.Fatal(err)
		}
		m, err := c.WaitProgramOutput(ctx, regexp.MustCompile(`got <(\w+)>`))
		if err != nil || m.Groups[1] != word {
			t.Fatalf("%s: %+v %v", word, m, err)
		}
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, err := c.WaitProgramOutput(short, regexp.MustCompile(`got <`)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("no more lines: %v", err)
	}
}

// TestAttachHelpersAndPID: Attach stops a process gdb did not start,
// ProgramPID names it, Detach lets it run on (also when it is running).
func TestAttachHelpersAndPID(t *testing.T) {
	spin := startOutside(t, compile(t, "spin"))
	c, _ := startGDB(t, "", Options{})
	ctx := stepCtx(t)
	if _, err := c.ProgramPID(ctx); !errors.Is(err, ErrNoProcess) {
		t.Errorf("pid before attach: %v", err)
	}
	for _, running := range []bool{false, true} {
		if err := c.Attach(ctx, spin.Pid); err != nil {
			t.Fatal(err)
		}
		if _, err := c.WaitStopped(ctx); err != nil {
			t.Fatal(err)
		}
		if pid, err := c.ProgramPID(ctx); err != nil || pid != spin.Pid {
			t.Errorf("pid %d %v, want %d", pid, err, spin.Pid)
		}
		if running {
			if err := c.Continue(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.Detach(ctx); err != nil {
			t.Fatalf("running=%v: detach: %v", running, err)
		}
		if !runningFreely(t, spin.Pid) {
			st, tracer := procState(t, spin.Pid)
			t.Errorf("running=%v: after detach: state %s, tracer %d", running, st, tracer)
		}
	}
	if pid, err := c.ProgramPID(ctx); !errors.Is(err, ErrNoProcess) {
		t.Errorf("pid after detach: %d %v", pid, err)
	}
}
