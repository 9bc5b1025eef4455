package gdbmi

import "testing"

// TestWatchpoints: a global's watchpoint stops on each change with the old
// and new values; a local's ends with its frame ("watchpoint-scope").
// Software watchpoints: this machine's kernel does not honour the debug
// registers, so hardware ones never trigger here.
func TestWatchpoints(t *testing.T) {
	c, _ := startGDB(t, "watch", Options{SoftwareWatchpoints: true})
	ctx := testCtx(t)
	if _, err := c.BreakInsert(ctx, "main"); err != nil {
		t.Fatal(err)
	}
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitStopped(ctx); err != nil {
		t.Fatal(err)
	}
	wp, err := c.WatchInsert(ctx, "level", WatchWrite)
	if err != nil {
		t.Fatal(err)
	}
	if wp.Number != "2" || wp.Exp != "level" {
		t.Errorf("watchpoint %+v", wp)
	}
	for _, want := range [][2]string{{"1", "2"}, {"2", "4"}} {
		if err := c.Continue(ctx); err != nil {
			t.Fatal(err)
		}
		st, err := c.WaitStopped(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Reason != "watchpoint-trigger" || st.Watchpoint == nil || *st.Watchpoint != *wp ||
			st.Value == nil || st.Value.Old != want[0] || st.Value.New != want[1] || st.Frame == nil || st.Frame.Func != "bump" {
			t.Fatalf("stop %+v (watchpoint %+v, value %+v)", st, st.Watchpoint, st.Value)
		}
	}
	if err := c.BreakDelete(ctx, wp.Number); err != nil {
		t.Fatal(err)
	}
	// A local, watched from bump's frame: it changes once, then goes out
	// of scope when bump returns.
	local, err := c.WatchInsert(ctx, "seen", WatchWrite)
	if err != nil {
		t.Fatal(err)
	}
	var reasons []StopReason
	for i := 0; i < 2; i++ {
		if err := c.Continue(ctx); err != nil {
			t.Fatal(err)
		}
		st, err := c.WaitStopped(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Watchpoint == nil || st.Watchpoint.Number != local.Number {
			t.Fatalf("stop %d: %+v", i, st)
		}
		reasons = append(reasons, st.Reason)
		if i == 0 && (st.Value == nil || st.Value.Old != "2" || st.Value.New != "4") {
			t.Errorf("local's change: %+v", st.Value)
		}
	}
	if reasons[0] != StopWatchpointTrigger || reasons[1] != StopWatchpointScope {
		t.Errorf("reasons %v", reasons)
	}
}
