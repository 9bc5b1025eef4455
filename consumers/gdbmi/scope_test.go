package gdbmi

import (
	"strings"
	"testing"
)

// TestReadInFrame reads the callers' frames of a stop by level, and gdb's
// selected frame stays the innermost.
func TestReadInFrame(t *testing.T) {
	c, _ := startGDB(t, "simple", Options{})
	ctx := testCtx(t)
	if _, err := c.BreakInsert(ctx, "add"); err != nil {
		t.Fatal(err)
	}
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	// The third call: add(2, 2) from twice(2) from main (i = 2, total =
	// twice(0) + twice(1) = 2).
	for i := 0; i < 3; i++ {
		if i > 0 {
			if err := c.Continue(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := c.WaitStopped(ctx); err != nil {
			t.Fatal(err)
		}
	}
	args, err := c.Arguments(ctx, InFrame(1))
	if err != nil || len(args) != 1 || args[0].Name != "x" || args[0].Value != "2" {
		t.Errorf("twice's arguments %+v %v", args, err)
	}
	locals, err := c.Locals(ctx, InFrame(2))
	if err != nil || len(locals) != 2 || locals[0].Name != "total" || locals[1].Name != "i" || locals[1].Value != "2" {
		t.Errorf("main's locals %+v %v", locals, err)
	}
	if v, err := c.Evaluate(ctx, "total + i", InFrame(2)); err != nil || v != "4" {
		t.Errorf("main's total + i = %q %v", v, err)
	}
	if _, err := c.Evaluate(ctx, "total", InFrame(0)); err == nil {
		t.Errorf("main's local found in add's frame")
	}
	frames, err := c.StackFrames(ctx, InThread(1))
	if err != nil || len(frames) != 3 || frames[2].Level != 2 || frames[2].Func != "main" {
		t.Errorf("frames of thread 1: %+v %v", frames, err)
	}
	f, err := c.SelectedFrame(ctx)
	if err != nil || f.Level != 0 || f.Func != "add" {
		t.Errorf("selected frame after the reads: %+v %v", f, err)
	}
	// An explicit selection is kept too.
	if err := c.SelectFrame(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if v, err := c.Evaluate(ctx, "a", InFrame(0)); err != nil || v != "2" {
		t.Errorf("add's a = %q %v", v, err)
	}
	if f, err := c.SelectedFrame(ctx); err != nil || f.Level != 1 || f.Func != "twice" {
		t.Errorf("selected frame after the reads: %+v %v", f, err)
	}
}

// TestReadInThread reads another thread's stack and variables while gdb's
// selected thread stays the one that stopped.
func TestReadInThread(t *testing.T) {
	c, _ := startGDB(t, "threads", Options{})
	ctx := testCtx(t)
	if _, err := c.BreakInsert(ctx, "work"); err != nil {
		t.Fatal(err)
	}
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := c.WaitStopped(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.ThreadID < 2 {
		t.Fatalf("stop %+v", st)
	}
	frames, err := c.StackFrames(ctx, InThread(1))
	if err != nil || len(frames) == 0 || frames[len(frames)-1].Func != "main" {
		t.Fatalf("thread 1's frames %+v %v", frames, err)
	}
	mainLevel := frames[len(frames)-1].Level
	locals, err := c.Locals(ctx, InThread(1), InFrame(mainLevel))
	if err != nil || len(locals) != 2 || locals[0].Name != "t" {
		t.Errorf("main's locals in thread 1: %+v %v", locals, err)
	}
	if v, err := c.Evaluate(ctx, "n", InThread(st.ThreadID)); err != nil || v == "" {
		t.Errorf("work's n in thread %d: %q %v", st.ThreadID, v, err)
	}
	ti, err := c.Threads(ctx)
	if err != nil || ti.CurrentThreadID != st.ThreadID {
		t.Errorf("selected thread after the reads: %+v %v (want %d)", ti, err, st.ThreadID)
	}
	if f, err := c.SelectedFrame(ctx); err != nil || f.Func != "work" || !strings.HasSuffix(f.File, "threads.c") {
		t.Errorf("selected frame after the reads: %+v %v", f, err)
	}
}
