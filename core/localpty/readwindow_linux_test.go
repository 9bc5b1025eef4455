package localpty

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// TestSendWaitsForAReadNotYetCounted: output the reader took from the
// terminal but has not counted yet (its goroutine descheduled between the
// read system call and the count, as happens on a loaded machine) is in
// transit. The shell is back in its read and the terminal buffer is empty,
// yet the send must wait for the prompt rather than settle on the read.
func TestSendWaitsForAReadNotYetCounted(t *testing.T) {
	need(t, "bash")
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	svc := core.New(core.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	_, err := svc.Register(NewShell(ShellOptions{Options: shortOpts(false)}))
	mustf(t, err, "register")
	defer svc.Shutdown(context.Background())
	owner := core.NewOwner("read-window")
	info, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: TypeShell})
	mustf(t, err, "spawn")

	// Hold the read that carries the next prompt for a while, between
	// its system call and its count.
	var armed, held atomic.Bool
	hook := func(s *session, p []byte) {
		if s.pid == info.PID && armed.Load() && bytes.Contains(p, []byte("\x1b]133;B")) {
			armed.Store(false)
			held.Store(true)
			time.Sleep(300 * time.Millisecond)
		}
	}
	testHookCountedRead.Store(&hook)
	defer testHookCountedRead.Store(nil)
	armed.Store(true)

	op, err := svc.Send(ctx, owner, info.ID, core.SendRequest{Data: "echo read-$((6*7))"})
	mustf(t, err, "send")
	res, err := op.Wait(ctx)
	mustf(t, err, "wait")
	if !held.Load() {
		t.Fatalf("the prompt's read was never held; output %q", res.Delta)
	}
	if res.WaitReason != core.WaitPrompt || !bytes.Contains([]byte(res.Delta), []byte("read-42")) {
		t.Fatalf("send settled as %s with %q, want prompt with read-42", res.WaitReason, res.Delta)
	}
	closed, err := svc.Close(ctx, owner, info.ID, "test done")
	if err != nil || !closed {
		t.Fatalf("close: %v %v", closed, err)
	}
}
