package gdbmi

import (
	"errors"
	"testing"
)

// TestHardwareWatchpointThatCannotTrigger: without
// Options.SoftwareWatchpoints, a watchpoint on a local is a hardware one.
// Where the machine honours the debug registers (the probe says so) it
// triggers; where it does not (this project's virtual machines), WatchInsert
// refuses it with ErrNoHardwareWatchpoints, and the same watchpoint set
// through raw Exec indeed ends at its frame's return without triggering,
// as the probe said.
func TestHardwareWatchpointThatCannotTrigger(t *testing.T) {
	c, _ := startGDB(t, "watch", Options{})
	ctx := testCtx(t)
	if _, err := c.BreakInsert(ctx, "bump"); err != nil {
		t.Fatal(err)
	}
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitStopped(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.BreakDelete(ctx); err != nil {
		t.Fatal(err)
	}
	works, known := c.hardwareWatchpointsWork(ctx)
	if !known {
		t.Fatal("the probe of hardware watchpoints could not tell")
	}
	t.Logf("hardware watchpoints work here: %v", works)
	wp, err := c.WatchInsert(ctx, "seen", WatchWrite)
	if works {
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Continue(ctx); err != nil {
			t.Fatal(err)
		}
		st, err := c.WaitStopped(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Reason != StopWatchpointTrigger || st.Watchpoint == nil || st.Watchpoint.Number != wp.Number {
			t.Fatalf("stop %+v, want the watchpoint's trigger", st)
		}
		return
	}
	if !errors.Is(err, ErrNoHardwareWatchpoints) || wp != nil {
		t.Fatalf("WatchInsert: %+v, %v; want ErrNoHardwareWatchpoints", wp, err)
	}
	if bps, err := c.BreakList(ctx); err != nil || len(bps) != 0 {
		t.Fatalf("the refused watchpoint is left: %+v %v", bps, err)
	}
	for _, kind := range []WatchKind{WatchRead, WatchAccess} {
		if _, err := c.WatchInsert(ctx, "level", kind); !errors.Is(err, ErrNoHardwareWatchpoints) {
			t.Errorf("WatchInsert of kind %d: %v; want ErrNoHardwareWatchpoints", kind, err)
		}
	}
	// The probe was right: the same watchpoint, set raw, never triggers.
	res, err := c.Exec(ctx, "-break-watch", "seen")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := c.WaitStopped(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Reason != StopWatchpointScope || st.Watchpoint == nil || st.Watchpoint.Number != BreakpointNumber(res.Get("wpt").Get("number").Str()) {
		t.Fatalf("raw hardware watchpoint: stop %+v, want watchpoint-scope without a trigger", st)
	}
}
