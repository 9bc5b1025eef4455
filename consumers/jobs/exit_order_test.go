//go:build unix

package jobs

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// TestExitEventAgreesWithGet shows that a subscriber told of an exit who
// then reads the job sees it ended, exactly as the event says, and that
// the record does not change afterwards: the exit event is published
// after the final state is recorded, and nothing rewrites it later (a
// stop whose grace ran out just as the job ended on its SIGTERM once
// marked the job forced after its exit event said otherwise).
func TestExitEventAgreesWithGet(t *testing.T) {
	// The grace is long enough for sleep to end on its SIGTERM on a
	// loaded machine (with the least grace, 50 ms, a loaded run once
	// found it still alive and marked it forced).
	const grace = 500 * time.Millisecond
	f := newFixture(t, Config{StopGrace: grace})
	type seen struct {
		ev  Event
		got Info
		err error
	}
	seenCh := make(chan seen, 16)
	defer f.m.OnExit(func(ev Event) {
		got, err := f.m.Get(f.owner, ev.ID)
		seenCh <- seen{ev, got, err}
	})()

	want := map[string]string{} // id -> what it must end as ("" any)
	want[f.launch(t, sh("true")).ID] = "finished"
	want[f.launch(t, sh("exit 3")).ID] = "failed"
	stopped := f.launch(t, sh("sleep 300"))
	want[stopped.ID] = "stopped user"
	forced := f.launch(t, sh(`trap "" TERM; echo trapped; while :; do sleep 1; done`))
	want[forced.ID] = "stopped forced"
	// It ends on SIGTERM about when the grace runs out: its exit and the
	// kill race, and either way is right as long as the record agrees.
	racing := f.launch(t, sh(fmt.Sprintf(`trap 'sleep %g; exit 0' TERM; echo trapped; while :; do sleep 1; done`, grace.Seconds())))
	want[racing.ID] = ""

	f.waitOutput(t, forced.ID, "trapped")
	f.waitOutput(t, racing.ID, "trapped")

	var wg sync.WaitGroup
	for _, id := range []string{stopped.ID, forced.ID, racing.ID} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := f.m.Stop(context.Background(), f.owner, id, StopOptions{}); err != nil {
				t.Errorf("stop %s: %v", id, err)
			}
		}()
	}
	wg.Wait()

	timeout := time.NewTimer(testenv.HangBound)
	defer timeout.Stop()
	for range want {
		var s seen
		select {
		case s = <-seenCh:
		case <-timeout.C:
			t.Fatalf("not every job's exit event came within %v", testenv.HangBound)
		}
		ev := s.ev.Info
		if s.err != nil || !s.got.State.Final() {
			t.Fatalf("%s: told of its exit, then read %+v, %v", ev.ID, s.got, s.err)
		}
		later, err := f.m.Get(f.owner, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		for when, got := range map[string]Info{"at the event": s.got, "afterwards": later} {
			if a, b := endOf(got), endOf(ev); a != b {
				t.Errorf("%s: the exit event says %s, Get %s says %s", ev.ID, b, when, a)
			}
		}
		switch w := want[ev.ID]; w {
		case "finished", "failed":
			if string(ev.State) != w {
				t.Errorf("%s: ended %s, want %s", ev.ID, ev.State, w)
			}
		case "stopped user", "stopped forced":
			if got := fmt.Sprintf("%s %s", ev.State, ev.StopReason); got != w {
				t.Errorf("%s: ended %s, want %s", ev.ID, got, w)
			}
		}
	}
}

// endOf is what a job's record says of its end.
func endOf(in Info) string {
	code := "none"
	if in.ExitCode != nil {
		code = fmt.Sprint(*in.ExitCode)
	}
	return fmt.Sprintf("state %s, code %s, signal %q, reason %q, cause %q, ended %v", in.State, code, in.Signal, in.StopReason, in.StopCause, in.EndedAt)
}
