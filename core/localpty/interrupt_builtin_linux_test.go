package localpty

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/promptmark"
)

// TestSendAfterInterruptingABuiltinSettlesOnItsPrompt: a Ctrl-C that
// bash takes outside its line editor (a loop or a read the shell runs
// itself) counts no line, though the signal reached the shell's own
// group. Once the shell waits at the prompt it printed for it, the next
// send settles on the prompt after its own command.
func TestSendAfterInterruptingABuiltinSettlesOnItsPrompt(t *testing.T) {
	svc, owner, info := shellService(t, core.SpawnRequest{})
	tap, err := svc.Tap(owner, info.ID)
	mustf(t, err, "tap")
	defer tap.Close()
	for i, cmd := range []string{"while :; do :; done", "read -r x", "while :; do :; done"} {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		op, err := svc.Send(ctx, owner, info.ID, core.SendRequest{Data: cmd, Timeout: 300 * time.Millisecond})
		mustf(t, err, "send %q", cmd)
		res, err := op.Wait(ctx)
		mustf(t, err, "wait %q", cmd)
		if res.WaitReason == core.WaitPrompt {
			t.Fatalf("%q settled on a prompt: %q", cmd, res.Delta)
		}
		for seen := []byte(nil); !bytes.Contains(seen, []byte(cmd)); { // the output up to the command's echo
			c, err := tap.Next(ctx)
			mustf(t, err, "waiting for the echo of %q (output so far %q)", cmd, seen)
			seen = append(seen, c...)
		}
		_, err = svc.Signal(ctx, owner, info.ID, core.SignalRequest{Signal: core.SIGINT})
		mustf(t, err, "signal")
		for seen := []byte(nil); !bytes.Contains(seen, []byte(promptmark.PromptEnd)); {
			c, err := tap.Next(ctx)
			mustf(t, err, "waiting for the interrupt's prompt (output so far %q)", seen)
			seen = append(seen, c...)
		}
		cancel()
		waitShellReads(t, svc, owner, info.ID)
		res = sendWait(t, svc, owner, info.ID, fmt.Sprintf("echo after-builtin-%d-$((6*7))", i))
		wantPrompt(t, fmt.Sprintf("after interrupting %q", cmd), res, fmt.Sprintf("after-builtin-%d-42", i))
	}
}

// waitShellReads waits until the shell waits for input (back in its line
// editor after printing the prompt): the state in which a send resets
// the line bound. The probe is the only signal of it, so this polls it,
// bounded by waitLimit.
func waitShellReads(t *testing.T, svc *core.Service, owner *core.Owner, id core.SessionID) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		waiting, ok, err := svc.WaitingForInput(owner, id)
		mustf(t, err, "probe")
		if !ok {
			t.Fatal("the backend cannot tell whether the shell waits for input")
		}
		if waiting {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the shell did not wait for input within %v", waitLimit)
		}
		time.Sleep(time.Millisecond) // the poll's pace, not a schedule
	}
}
