package ptytools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// TestOpenWithoutACommandOpensTheShell: pty_open without a command opens
// the shell, locally and on a target, whose description says "Open the
// shell on this remote host": a model that passed only the target was
// refused for want of a command.
func TestOpenWithoutACommandOpensTheShell(t *testing.T) {
	s, err := ptysession.NewLocal(ptysession.Options{Targets: map[string]ptysession.Target{
		"box": {Backend: "shell", Description: "a local shell standing in for a host"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	all := Tools(s)
	all[0] = TargetedOpen(s, all[0])
	d, err := tools.NewDispatcher(tools.Options{}, all...)
	if err != nil {
		t.Fatal(err)
	}
	owner := core.NewOwner("model")
	for _, args := range []string{`{}`, `{"target":"box"}`} {
		res, err := d.Call(testCtx(t), owner, ToolOpen, json.RawMessage(args), tools.CallOptions{})
		if err != nil {
			t.Fatalf("pty_open %s: %v", args, err)
		}
		r, ok := res.Structured.(ptysession.OpenResult)
		if !ok || !strings.HasPrefix(res.Text, "[session "+string(r.SessionID)+" opened") {
			t.Fatalf("pty_open %s: %q", args, res.Text)
		}
		id := r.SessionID
		waitPrompt(t, s, owner, id)
		send, err := s.Send(testCtx(t), owner, id, ptysession.SendRequest{Data: "echo from-$0"})
		if err != nil || send.WaitReason != core.WaitPrompt || !strings.Contains(send.Delta, "from-bash") {
			t.Fatalf("pty_open %s, then a send: %s %q %v", args, send.WaitReason, send.Delta, err)
		}
		if _, err := s.Close(testCtx(t), owner, id); err != nil {
			t.Fatal(err)
		}
	}
}
