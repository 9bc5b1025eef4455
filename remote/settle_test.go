package remote_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// shellOverPipe returns a service whose "shell" type runs the agent's
// shell over a pipe, and a fresh shell (Spawn returns at its first prompt).
func shellOverPipe(t *testing.T) (*core.Service, *core.Owner, core.SessionID, *markers, *agentProc) {
	t.Helper()
	c, a := connectPipe(t)
	m := &markers{Backend: c.Backend("shell", remote.AgentShell)}
	t.Cleanup(func() { // after the service's shutdown
		if pids := m.FarSide(); len(pids) > 0 {
			t.Errorf("processes left on the far side: %v", pids)
		}
	})
	svc := newService(t, m)
	owner := core.NewOwner("remote-test")
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	res, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "shell"})
	if err != nil {
		t.Fatalf("Spawn: %v", err)
	}
	return svc, owner, res.ID, m, a
}

// send sends line with Enter and waits for it to settle. The silence
// window is long, so that a send that settles on silence shows as
// inferred_idle and fails the test rather than passing slowly.
func send(t *testing.T, svc *core.Service, owner *core.Owner, id core.SessionID, line string) core.SendResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	op, err := svc.Send(ctx, owner, id, core.SendRequest{Data: line, QuietWindow: 30 * time.Second})
	if err != nil {
		t.Fatalf("send %q: %v", line, err)
	}
	res, err := op.Wait(ctx)
	if err != nil {
		t.Fatalf("wait %q: %v", line, err)
	}
	return res
}

func wantSettled(t *testing.T, line string, res core.SendResult, reason core.WaitReason, want string) {
	t.Helper()
	if res.WaitReason != reason || !strings.Contains(res.Delta, want) {
		t.Fatalf("%q settled as %s after %v with %q; want %s with %q", line, res.WaitReason, res.Elapsed, res.Delta, reason, want)
	}
	t.Logf("%q: %s after %v", line, res.WaitReason, res.Elapsed)
}

// TestSettleOverPipe: through the agent, `true` settles on the shell's
// prompt marker with its exit code, and a Python REPL's `6*7` settles on
// stdin_read (the far side's kernel says the REPL blocks reading its
// terminal), neither waiting for the 30 s silence window.
func TestSettleOverPipe(t *testing.T) {
	svc, owner, id, _, _ := shellOverPipe(t)
	res := send(t, svc, owner, id, "true")
	wantSettled(t, "true", res, core.WaitPrompt, "")
	if res.ExitCode == nil || *res.ExitCode != 0 {
		t.Fatalf("true: exit code %v, want 0", res.ExitCode)
	}
	res = send(t, svc, owner, id, "false")
	wantSettled(t, "false", res, core.WaitPrompt, "")
	if res.ExitCode == nil || *res.ExitCode != 1 {
		t.Fatalf("false: exit code %v, want 1", res.ExitCode)
	}
	wantSettled(t, "python3 -q", send(t, svc, owner, id, "python3 -q"), core.WaitStdinRead, ">>> ")
	wantSettled(t, "6*7", send(t, svc, owner, id, "6*7"), core.WaitStdinRead, "42")
	wantSettled(t, "input()", send(t, svc, owner, id, "input('name? ')"), core.WaitStdinRead, "name? ")
	wantSettled(t, "answer", send(t, svc, owner, id, "ada"), core.WaitStdinRead, "'ada'")
	wantSettled(t, "exit()", send(t, svc, owner, id, "exit()"), core.WaitPrompt, "")
}

// The far side's echo mode reaches the host: the agent's shell at its
// prompt shows what is typed itself (readline), `read -rs` reads a hidden
// line, so that input to it is withheld from observers and pty_secret may
// type into it.
func TestEchoModeOverPipe(t *testing.T) {
	svc, owner, id, _, _ := shellOverPipe(t)
	if off, known, err := svc.EchoOff(owner, id); err != nil || !known || off {
		t.Fatalf("at the prompt: off %v known %v (%v), want a known echo", off, known, err)
	}
	wantSettled(t, "read -rs", send(t, svc, owner, id, "read -rs pw"), core.WaitStdinRead, "")
	if off, known, err := svc.EchoOff(owner, id); err != nil || !known || !off {
		t.Fatalf("in read -rs: off %v known %v (%v), want a hidden line", off, known, err)
	}
	wantSettled(t, "answer", send(t, svc, owner, id, "not-a-secret"), core.WaitPrompt, "")
}
