package remote_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
	"github.com/ptyseam/ptyseam/remote/remotetest"
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

// TestSettleOverPipe: through the agent, `true` settles on the shell's
// prompt marker with its exit code, and a Python REPL's `6*7` settles on
// stdin_read (the far side's kernel says the REPL blocks reading its
// terminal), neither waiting for the 30 s silence window.
func TestSettleOverPipe(t *testing.T) {
	svc, owner, id, _, _ := shellOverPipe(t)
	res := remotetest.Send(t, svc, owner, id, "true")
	remotetest.WantSettled(t, "true", res, core.WaitPrompt, "")
	if res.ExitCode == nil || *res.ExitCode != 0 {
		t.Fatalf("true: exit code %v, want 0", res.ExitCode)
	}
	res = remotetest.Send(t, svc, owner, id, "false")
	remotetest.WantSettled(t, "false", res, core.WaitPrompt, "")
	if res.ExitCode == nil || *res.ExitCode != 1 {
		t.Fatalf("false: exit code %v, want 1", res.ExitCode)
	}
	remotetest.WantSettled(t, "python3 -q", remotetest.Send(t, svc, owner, id, "python3 -q"), core.WaitStdinRead, ">>> ")
	remotetest.WantSettled(t, "6*7", remotetest.Send(t, svc, owner, id, "6*7"), core.WaitStdinRead, "42")
	remotetest.WantSettled(t, "input()", remotetest.Send(t, svc, owner, id, "input('name? ')"), core.WaitStdinRead, "name? ")
	remotetest.WantSettled(t, "answer", remotetest.Send(t, svc, owner, id, "ada"), core.WaitStdinRead, "'ada'")
	remotetest.WantSettled(t, "exit()", remotetest.Send(t, svc, owner, id, "exit()"), core.WaitPrompt, "")
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
	remotetest.WantSettled(t, "read -rs", remotetest.Send(t, svc, owner, id, "read -rs pw"), core.WaitStdinRead, "")
	if off, known, err := svc.EchoOff(owner, id); err != nil || !known || !off {
		t.Fatalf("in read -rs: off %v known %v (%v), want a hidden line", off, known, err)
	}
	remotetest.WantSettled(t, "answer", remotetest.Send(t, svc, owner, id, "not-a-secret"), core.WaitPrompt, "")
}

// Who reads the far side's terminal reaches the host (the reader call):
// the shell blocked in `read -rs` is named, with its pid and arguments,
// as the secret page shows it to a person.
func TestReaderOverPipe(t *testing.T) {
	svc, owner, id, _, _ := shellOverPipe(t)
	remotetest.WantSettled(t, "read -rs", remotetest.Send(t, svc, owner, id, "read -rs pw"), core.WaitStdinRead, "")
	r, err := svc.Reader(owner, id)
	if err != nil {
		t.Fatalf("Reader: %v", err)
	}
	if !r.Leader || len(r.Programs) == 0 {
		t.Fatalf("Reader: %+v, want the session's own shell", r)
	}
	p := r.Programs[0]
	if p.PID <= 0 || !p.Reading || len(p.Argv) == 0 || !strings.Contains(p.Argv[0], "bash") || !strings.HasSuffix(p.Exe, "bash") {
		t.Fatalf("Reader: %+v, want bash blocked reading the terminal", p)
	}
	remotetest.WantSettled(t, "answer", remotetest.Send(t, svc, owner, id, "not-a-secret"), core.WaitPrompt, "")
}
