package core_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// TestCancelRacingThePromptNeverInterruptsASettledSend cancels sends of
// `true` at once, racing the prompt that the session's read loop may
// settle them on: a send that settled (on the prompt, or any other way)
// was not followed by an interrupt (the next command runs whole: its output is there and no ^C
// was echoed).
func TestCancelRacingThePromptNeverInterruptsASettledSend(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	s := spawnShell(t, svc, owner)
	seen := map[core.WaitReason]int{}
	for i := range 40 {
		ctx, cancel := context.WithCancel(ctxT(t))
		op, err := svc.Send(ctx, owner, s.ID, core.SendRequest{Data: "true"})
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		if i%2 == 0 {
			cancel() // at once: before or after the prompt came back
		} else {
			<-op.Done()
			cancel()
		}
		res, err := op.Wait(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		seen[res.WaitReason]++
		if res.WaitReason != core.WaitCancelled {
			next := send(t, svc, owner, s.ID, "echo still-$((20+22))")
			if !strings.Contains(next.Delta, "still-42") || strings.Contains(next.Delta, "^C") || next.WaitReason != core.WaitPrompt {
				t.Fatalf("after a send settled on %s, the next one saw %q (%s)", res.WaitReason, next.Delta, next.WaitReason)
			}
		}
	}
	if seen[core.WaitPrompt] == 0 {
		t.Fatalf("no send settled on the prompt: %v", seen)
	}
}
