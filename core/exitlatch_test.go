package core

import (
	"errors"
	"sync"
	"testing"
)

// The first Set wins, from any number of goroutines at once; whoever sees
// Exited closed reads that status; before, the status is Running.
func TestExitLatchFirstSetWins(t *testing.T) {
	var l ExitLatch
	if st := l.ExitStatus(); st != Running || l.Done() {
		t.Fatalf("zero latch: %+v, done %v; want Running, not done", st, l.Done())
	}
	exited := l.Exited()
	var wg sync.WaitGroup
	wins := make(chan Status, 8)
	for i := range 8 {
		wg.Go(func() {
			st := ExitedWithCode(i)
			if l.Set(st) {
				wins <- st
			}
		})
	}
	seen := make(chan Status, 1)
	go func() { <-exited; seen <- l.ExitStatus() }()
	wg.Wait()
	close(wins)
	var won []Status
	for st := range wins {
		won = append(won, st)
	}
	if len(won) != 1 {
		t.Fatalf("%d Set calls reported recording the exit, want 1", len(won))
	}
	if got := <-seen; got != won[0] {
		t.Fatalf("after Exited closed: %+v, want the first Set's %+v", got, won[0])
	}
	if l.Set(ExitedWithSignal("SIGKILL")) || l.ExitStatus() != won[0] || !l.Done() {
		t.Fatalf("a later Set changed the exit: %+v", l.ExitStatus())
	}
	if l.Exited() != exited {
		t.Fatal("Exited is not the same channel before and after Set")
	}
}

// SetCause records the cause with the status, by the same first call:
// nil before the exit; a later Set or SetCause changes neither; an exit
// Set recorded has no cause.
func TestExitLatchCause(t *testing.T) {
	var l ExitLatch
	if l.Cause() != nil {
		t.Fatalf("cause before the exit: %v", l.Cause())
	}
	lost := errors.New("connection lost")
	st := Status{Kind: StatusExited, ExitCode: -1, Reason: "connection lost"}
	seen := make(chan error, 1)
	go func() { <-l.Exited(); seen <- l.Cause() }()
	if !l.SetCause(st, lost) {
		t.Fatal("the first SetCause did not record the exit")
	}
	if got := <-seen; got != lost {
		t.Fatalf("after Exited closed: cause %v, want %v", got, lost)
	}
	if l.SetCause(ExitedWithCode(0), errors.New("other")) || l.Set(ExitedWithCode(1)) {
		t.Fatal("a later call recorded the exit again")
	}
	if l.Cause() != lost || l.ExitStatus() != st {
		t.Fatalf("a later call changed the exit: %+v, %v", l.ExitStatus(), l.Cause())
	}
	var plain ExitLatch
	plain.Set(ExitedWithCode(0))
	if plain.Cause() != nil {
		t.Fatalf("an exit Set recorded has cause %v", plain.Cause())
	}
}
