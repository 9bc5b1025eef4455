package gdbmi

import "testing"

// TestRawExecDiscardsStaleStops: a stop nobody waited for with
// WaitStopped (seen on the events only) is discarded when an execution
// command goes through raw Exec, as the helpers do, so WaitStopped returns
// the stop that command caused.
func TestRawExecDiscardsStaleStops(t *testing.T) {
	c, _ := startGDB(t, "simple", Options{})
	ctx := testCtx(t)
	if _, err := c.BreakInsert(ctx, "add"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, "-exec-run"); err != nil {
		t.Fatal(err)
	}
	eventsUntilStop(t, ctx, c, StopBreakpointHit)
	for _, cmd := range [][]string{{"-exec-finish"}, {"exec-until", "16"}} {
		if _, err := c.Exec(ctx, cmd[0], cmd[1:]...); err != nil {
			t.Fatal(err)
		}
		st, err := c.WaitStopped(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]StopReason{"-exec-finish": StopFunctionFinished, "exec-until": StopLocationReached}[cmd[0]]
		if st.Reason != want {
			t.Errorf("%s: WaitStopped returned %q, want %q", cmd[0], st.Reason, want)
		}
		eventsUntilStop(t, ctx, c, want)
	}
}
