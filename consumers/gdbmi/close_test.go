package gdbmi

import (
	"errors"
	"testing"
	"time"
)

// TestCloseReleasesWaitingCalls: with gdb busy in a shell command (it
// reads no command until that ends), a Console call and a WaitStopped are
// waiting; Close returns at once and so do both calls, with ErrClosed,
// and nothing gdb started survives.
func TestCloseReleasesWaitingCalls(t *testing.T) {
	c, svc := startGDB(t, "", Options{})
	ctx := testCtx(t)
	info, err := svc.Info(c.Owner(), c.GDBSession())
	if err != nil {
		t.Fatal(err)
	}
	type ret struct {
		err error
		at  time.Time
	}
	console := make(chan ret, 1)
	stopped := make(chan ret, 1)
	go func() {
		_, err := c.Console(ctx, "shell sleep 20")
		console <- ret{err, time.Now()}
	}()
	go func() {
		_, err := c.WaitStopped(ctx)
		stopped <- ret{err, time.Now()}
	}()
	sleepPID := waitForChild(t, ctx, info.PID, "sleep")

	const bound = 100 * time.Millisecond
	began := time.Now()
	if err := c.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	d := time.Since(began)
	t.Logf("Close returned after %v", d)
	if d > bound {
		t.Errorf("Close took %v with gdb busy, want at most %v", d, bound)
	}
	for name, ch := range map[string]chan ret{"Console": console, "WaitStopped": stopped} {
		r := <-ch
		if !errors.Is(r.err, ErrClosed) {
			t.Errorf("%s returned %v, want ErrClosed", name, r.err)
		}
		if d := r.at.Sub(began); d > bound {
			t.Errorf("%s returned %v after Close began, want at most %v", name, d, bound)
		}
	}
	for _, pid := range []int{info.PID, sleepPID} {
		if running(pid) {
			t.Errorf("pid %d still runs after Close", pid)
		}
	}
}
