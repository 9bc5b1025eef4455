package gdbmi

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// stepCtx bounds one step of a test (testenv.HangBound), so that a call
// waiting for something that never comes fails on its own.
func stepCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	t.Cleanup(cancel)
	return ctx
}

// runningFreely reports whether pid runs untraced and not stopped.
func runningFreely(t *testing.T, pid int) bool {
	st, tracer := procState(t, pid)
	return tracer == 0 && (strings.HasPrefix(st, "S") || strings.HasPrefix(st, "R"))
}

// TestAttachDetach: -target-attach through raw Exec completes on its
// result record (in asynchronous mode gdb prints the prompt after it only
// once the next command arrives), the process stops under gdb, and after
// -target-detach it runs on, untraced.
func TestAttachDetach(t *testing.T) {
	spin := startOutside(t, compile(t, "spin"))
	c, _ := startGDB(t, "", Options{})
	pid := strconv.Itoa(spin.Pid)

	if _, err := c.Exec(stepCtx(t), "-target-attach", pid); err != nil {
		t.Fatalf("attach: %v", err)
	}
	st, err := c.WaitStopped(stepCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if st.Frame == nil {
		t.Errorf("attach stop %+v", st)
	}
	if _, tracer := procState(t, spin.Pid); tracer == 0 {
		t.Errorf("process %d is not traced after attach", spin.Pid)
	}
	v, err := c.Evaluate(stepCtx(t), "ticks")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := StringValue(v).Uint(); err != nil || n == 0 {
		t.Errorf("ticks %q %v", v, err)
	}
	if _, err := c.Exec(stepCtx(t), "-target-detach"); err != nil {
		t.Fatalf("detach: %v", err)
	}
	if !runningFreely(t, spin.Pid) {
		st, tracer := procState(t, spin.Pid)
		t.Errorf("after detach: state %s, tracer %d", st, tracer)
	}
}

// TestCloseSparesAttachedProcess: Close detaches from a process gdb did
// not start (stopped under gdb or running) instead of killing it.
func TestCloseSparesAttachedProcess(t *testing.T) {
	for _, running := range []bool{false, true} {
		spin := startOutside(t, compile(t, "spin"))
		c, _ := startGDB(t, "", Options{})
		if _, err := c.Exec(stepCtx(t), "-target-attach", strconv.Itoa(spin.Pid)); err != nil {
			t.Fatalf("attach: %v", err)
		}
		if _, err := c.WaitStopped(stepCtx(t)); err != nil {
			t.Fatal(err)
		}
		if running {
			if err := c.Continue(stepCtx(t)); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.Close(stepCtx(t)); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if !alive(t, spin.Pid) {
			t.Fatalf("running=%v: Close killed the attached process", running)
		}
		if !runningFreely(t, spin.Pid) {
			st, tracer := procState(t, spin.Pid)
			t.Errorf("running=%v: after Close: state %s, tracer %d", running, st, tracer)
		}
	}
}
