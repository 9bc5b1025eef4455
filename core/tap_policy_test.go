package core_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// TestTapWakePolicyHoldsWhatWasQueuedBefore sets a wake policy on a tap
// that already holds output queued under the default policy (wake on every
// chunk): the new policy must judge it, so a blocked Next does not return
// for it. A reader that sets its policy just after opening the tap (the
// screen emulator does) races the program's first output; once that output
// won, it used to wake the reader as if nothing had changed.
func TestTapWakePolicyHoldsWhatWasQueuedBefore(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	s, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Command: []string{"sh", "-c", "printf 'quiet '; exec sleep 60"},
		WithTap: true, NoInitialWait: true})
	if err != nil {
		t.Fatal(err)
	}
	// The scrollback and the taps are fed together: once the scrollback
	// shows "quiet ", the tap holds it.
	deadline := time.Now().Add(testenv.HangBound)
	for {
		pg, err := svc.Read(owner, s.ID, core.PageRequest{Newest: true, Count: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(pg.Lines) > 0 && strings.Contains(pg.Lines[len(pg.Lines)-1], "quiet ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no output: %+v", pg)
		}
		time.Sleep(5 * time.Millisecond)
	}
	s.Tap.SetWakePolicy(1<<20, func(p []byte) bool { return strings.Contains(string(p), "!") })
	short, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	c, err := s.Tap.Next(short)
	if short.Err() == nil {
		t.Fatalf("Next returned %q, %v before its context ended: queued output woke it against the new policy", c, err)
	}
	// A Next whose context has ended returns what is queued at once.
	ended, cancelEnded := context.WithCancel(context.Background())
	cancelEnded()
	if c, err := s.Tap.Next(ended); err != nil || string(c) != "quiet " {
		t.Fatalf("a Next with an ended context returns what is queued: got %q, %v", c, err)
	}
	// An urgent chunk already queued wakes the reader under the new policy.
	s2, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Command: []string{"sh", "-c", "printf 'now!'; exec sleep 60"},
		WithTap: true, NoInitialWait: true})
	if err != nil {
		t.Fatal(err)
	}
	for {
		pg, err := svc.Read(owner, s2.ID, core.PageRequest{Newest: true, Count: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(pg.Lines) > 0 && strings.Contains(pg.Lines[len(pg.Lines)-1], "now!") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no output: %+v", pg)
		}
		time.Sleep(5 * time.Millisecond)
	}
	s2.Tap.SetWakePolicy(1<<20, func(p []byte) bool { return strings.Contains(string(p), "!") })
	if c, err := s2.Tap.Next(ctxT(t)); err != nil || string(c) != "now!" {
		t.Fatalf("queued urgent chunk: %q, %v", c, err)
	}
}
