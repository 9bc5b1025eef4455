package remote_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
	"github.com/ptyseam/ptyseam/remote/remotetest"
	"github.com/ptyseam/ptyseam/testharness"
)

// escapee is a shell command that leaves a process behind the session's
// back: setsid -f double-forks it into a new session, and it ignores
// SIGTERM and SIGHUP.
const escapee = `setsid -f sh -c 'trap "" TERM HUP; exec sleep 1000' </dev/null >/dev/null 2>&1; echo started`

// TestCloseLeavesNothingOverPipe: Close of a remote session ends its
// whole tree on the far side, a setsid double-forked escapee that ignores
// SIGTERM and SIGHUP included (listed by its marker in /proc).
func TestCloseLeavesNothingOverPipe(t *testing.T) {
	svc, owner, id, m, _ := shellOverPipe(t)
	remotetest.WantSettled(t, "escapee", remotetest.Send(t, svc, owner, id, escapee), core.WaitPrompt, "started")
	before := m.WaitFarSide(t, 2, waitLimit) // the shell and the escapee
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if _, err := svc.Close(ctx, owner, id, "test"); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if pids := m.FarSide(); len(pids) > 0 {
		t.Fatalf("after Close the far side still runs %v (before: %v)", pids, before)
	}
}

// TestStreamEndLeavesNothing: when the host's stream ends with sessions
// open, the agent closes every one of them, escapees included, and exits.
func TestStreamEndLeavesNothing(t *testing.T) {
	c, a := connectPipe(t)
	m := &markers{Backend: c.Backend("shell", remote.AgentShell)}
	svc := newService(t, m)
	owner := core.NewOwner("remote-test")
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	for range 3 {
		res, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "shell"})
		if err != nil {
			t.Fatalf("Spawn: %v", err)
		}
		remotetest.WantSettled(t, "escapee", remotetest.Send(t, svc, owner, res.ID, escapee), core.WaitPrompt, "started")
	}
	before := m.WaitFarSide(t, 6, waitLimit)
	if err := c.Close(); err != nil {
		t.Fatalf("Conn.Close: %v", err)
	}
	if err := a.wait(t); err != nil {
		t.Fatalf("agent exit: %v; stderr: %s", err, a.stderr.String())
	}
	if pids := m.FarSide(); len(pids) > 0 {
		t.Fatalf("after the stream ended the far side still runs %v (before: %v)", pids, before)
	}
}

// TestStreamKilledMidSend: the stream dies (its pipes are closed under
// the host) while a send waits on a running command and while a write is
// blocked on a program that never reads. The send settles with
// session_exit, the write returns, the session's status says "connection
// lost", later calls fail with SESSION_EXITED matching
// remote.ErrConnectionLost, and the agent, seeing its stream end, leaves
// nothing behind.
func TestStreamKilledMidSend(t *testing.T) {
	c, a := connectPipe(t)
	m := &markers{Backend: c.Backend("shell", remote.AgentShell)}
	svc := newService(t, m)
	owner := core.NewOwner("remote-test")
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	sh, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "shell"})
	if err != nil {
		t.Fatalf("Spawn: %v", err)
	}
	remotetest.WantSettled(t, "escapee", remotetest.Send(t, svc, owner, sh.ID, escapee), core.WaitPrompt, "started")
	op, err := svc.Send(ctx, owner, sh.ID, core.SendRequest{Data: "sleep 1000", QuietWindow: 30 * time.Second})
	if err != nil {
		t.Fatalf("send: %v", err)
	}

	// A write that blocks: the program never reads its terminal.
	stall, err := m.Spawn(ctx, core.BackendRequest{Command: testharness.Child(t, "stall-input"), Size: core.Size{Rows: 24, Cols: 80}})
	if err != nil {
		t.Fatalf("Spawn stall-input: %v", err)
	}
	go func() { // drain its output as the service would
		buf := make([]byte, 4096)
		for {
			if _, err := stall.Read(buf); err != nil {
				return
			}
		}
	}()
	writeDone := make(chan error, 1)
	go func() {
		_, err := stall.Write(ctx, make([]byte, 8<<20))
		writeDone <- err
	}()
	m.WaitFarSide(t, 4, waitLimit) // shell, escapee, sleep, stall-input

	// Kill the stream under the host: no goodbye.
	_ = a.stream.Close()

	res, err := op.Wait(ctx)
	if err != nil {
		t.Fatalf("send wait: %v", err)
	}
	if res.WaitReason != core.WaitSessionExit || res.Status.Reason != "connection lost" {
		t.Fatalf("the send settled as %s with status %v, want session_exit with reason connection lost", res.WaitReason, res.Status)
	}
	select {
	case err := <-writeDone:
		if !errors.Is(err, remote.ErrConnectionLost) {
			t.Fatalf("the blocked write ended with %v, want remote.ErrConnectionLost", err)
		}
	case <-ctx.Done():
		t.Fatal("the blocked write did not return after the stream died")
	}
	<-stall.Exited()
	if st := stall.ExitStatus(); st.Reason != "connection lost" || !errors.Is(core.ProberOf(stall).ExitCause(), remote.ErrConnectionLost) {
		t.Fatalf("stall-input status %v", st)
	}
	_, err = svc.Write(ctx, owner, sh.ID, []byte("echo hi\r"))
	var ce *core.Error
	if !errors.As(err, &ce) || ce.Code != core.CodeSessionExited || !errors.Is(err, remote.ErrConnectionLost) {
		t.Fatalf("a write after the loss: %v, want SESSION_EXITED matching remote.ErrConnectionLost", err)
	}
	if err := stall.Close(ctx); err != nil {
		t.Fatalf("Close of a lost session: %v", err)
	}
	if err := a.wait(t); err != nil {
		t.Fatalf("agent exit: %v; stderr: %s", err, a.stderr.String())
	}
	if pids := m.FarSide(); len(pids) > 0 {
		t.Fatalf("after the stream died the far side still runs %v", pids)
	}
}
