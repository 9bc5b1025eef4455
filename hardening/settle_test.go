package hardening

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/testharness"
)

// TestSettleNeverEarly sends hundreds of commands to programs that wait for
// input in different ways (bash at its marked prompt, the Python REPL in
// select, a Go program whose runtime threads wake all the time, cat in a
// canonical read) and checks that no send settles before the program
// answered: each result holds the answer.
func TestSettleNeverEarly(t *testing.T) {
	child := testharness.BuildChildren(t)
	svc := newService(t, core.Options{})
	ctx := testCtx(t, 5*time.Minute)
	owner := core.NewOwner("settle")
	n := rounds(150, 1000)
	programs := []struct {
		name   string
		req    core.SpawnRequest
		send   func(i int) string
		answer func(i int) string
		reason core.WaitReason
	}{
		{"bash", core.SpawnRequest{Type: "shell"},
			func(i int) string { return fmt.Sprintf("echo MARK-$((%d+1))", i) },
			func(i int) string { return fmt.Sprintf("MARK-%d\n", i+1) }, core.WaitPrompt},
		{"python3", core.SpawnRequest{Type: "exec", Command: []string{"python3", "-q", "-i"}},
			func(i int) string { return fmt.Sprintf("%d+1", i) },
			func(i int) string { return fmt.Sprintf("\n%d\n>>> ", i+1) }, core.WaitStdinRead},
		{"go echo-repl", core.SpawnRequest{Type: "exec", Command: []string{child, "echo-repl"}},
			func(i int) string { return fmt.Sprintf("ping-%d", i) },
			func(i int) string { return fmt.Sprintf("ping-%d\n> ", i) }, core.WaitStdinRead},
		{"cat", core.SpawnRequest{Type: "exec", Command: []string{"cat"}},
			func(i int) string { return fmt.Sprintf("line-%d", i) },
			func(i int) string { return fmt.Sprintf("line-%d\nline-%d\n", i, i) }, core.WaitStdinRead},
	}
	for _, p := range programs {
		t.Run(p.name, func(t *testing.T) {
			s, err := svc.Spawn(ctx, owner, p.req)
			if err != nil {
				t.Fatal(err)
			}
			defer svc.Close(ctx, owner, s.ID, "done")
			var early, late []string
			var worst time.Duration
			for i := range n {
				op, err := svc.Send(ctx, owner, s.ID, core.SendRequest{Data: p.send(i)})
				if err != nil {
					t.Fatal(err)
				}
				res, err := op.Wait(ctx)
				if err != nil {
					t.Fatal(err)
				}
				worst = max(worst, res.Elapsed)
				switch {
				case !strings.Contains(res.Delta, p.answer(i)):
					early = append(early, fmt.Sprintf("#%d %s after %s: %q", i, res.WaitReason, res.Elapsed, res.Delta))
				case res.WaitReason != p.reason:
					// Complete but not recognised: a late settle (the
					// silence window), a cost in latency, not in output.
					late = append(late, fmt.Sprintf("#%d %s after %s", i, res.WaitReason, res.Elapsed))
				}
			}
			if len(early) > 0 {
				t.Fatalf("%d of %d sends settled before the answer (e.g. %s)", len(early), n, early[0])
			}
			if len(late)*50 > n {
				t.Fatalf("%d of %d sends were not recognised as %s (e.g. %s)", len(late), n, p.reason, late[0])
			}
			t.Logf("%d sends, slowest %s, %d settled late: %v", n, worst, len(late), late)
		})
	}
}

// TestFirstSendAfterSpawnNeverEarly sends a command the moment a shell's
// spawn returned, while the shell may still be on its way into its read:
// the send must settle with the command's answer.
func TestFirstSendAfterSpawnNeverEarly(t *testing.T) {
	svc := newService(t, core.Options{})
	ctx := testCtx(t, 5*time.Minute)
	owner := core.NewOwner("first-send")
	for i := range rounds(40, 400) {
		s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "shell"})
		if err != nil {
			t.Fatal(err)
		}
		op, err := svc.Send(ctx, owner, s.ID, core.SendRequest{Data: fmt.Sprintf("echo FIRST-$((%d+1))", i)})
		if err != nil {
			t.Fatal(err)
		}
		res, err := op.Wait(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Delta, fmt.Sprintf("FIRST-%d\n", i+1)) {
			t.Fatalf("round %d settled as %s after %s before the answer: %q", i, res.WaitReason, res.Elapsed, res.Delta)
		}
		if _, err := svc.Close(ctx, owner, s.ID, "round done"); err != nil {
			t.Fatal(err)
		}
	}
}
