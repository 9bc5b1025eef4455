//go:build unix

package jobs

import (
	"context"
	"testing"
)

// A PTY job that asks a question waits for input; a pipe job cannot
// tell.
func TestWaitingForInput(t *testing.T) {
	f := newFixture(t, Config{})
	q := f.launch(t, LaunchRequest{Command: "sh", Args: []string{"-c", "printf 'Continue? '; read a; echo got $a"}, Backend: BackendPTY})
	f.waitOutput(t, q.ID, "Continue? ")
	// No event announces a read: the probe is the only signal, polled.
	poll(t, "waiting for input", func() bool {
		waiting, ok, err := f.m.WaitingForInput(f.owner, q.ID)
		if err != nil || !ok {
			t.Fatalf("probe: ok %v %v", ok, err)
		}
		return waiting
	})
	if _, err := f.m.Write(context.Background(), f.owner, q.ID, "yes\n"); err != nil {
		t.Fatal(err)
	}
	f.waitEnded(t, q.ID)
	if waiting, ok, err := f.m.WaitingForInput(f.owner, q.ID); err != nil || !ok || waiting {
		t.Fatalf("after it ended: waiting %v ok %v %v", waiting, ok, err)
	}
	pipe := f.launch(t, LaunchRequest{Command: "sh", Args: []string{"-c", "read a"}, Backend: BackendPipe})
	if _, ok, err := f.m.WaitingForInput(f.owner, pipe.ID); err != nil || ok {
		t.Fatalf("a pipe job: ok %v %v, want it cannot tell", ok, err)
	}
}
