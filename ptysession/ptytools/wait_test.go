package ptytools

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// TestWaitToolTakesAnIDForItsConditions: pty_wait takes id, as every
// other pty tool does, as the target of the conditions that name none (a
// model passed {"id": ..., "conditions": [{"kind": "output", ...}]} and was
// refused with "unknown field"); a condition's own target still wins.
func TestWaitToolTakesAnIDForItsConditions(t *testing.T) {
	forEachSeam(t, ptysession.Options{}, func(t *testing.T, s *ptysession.Sessions) {
		d, owner, id := waitToolOnABash(t, s)
		if _, err := s.Send(testCtx(t), owner, core.SessionID(id), ptysession.SendRequest{Data: "echo BUILD-DONE"}); err != nil {
			t.Fatal(err)
		}
		args := fmt.Sprintf(`{"id":%q,"conditions":[{"kind":"output","pattern":"^BUILD-DONE"},{"kind":"exit","target":"pty_nosuchsessionxxxxxxxxxxxxxx"}],"timeoutMs":%d}`, id, waitLimit.Milliseconds())
		_, err := d.Call(testCtx(t), owner, ToolWait, json.RawMessage(args), tools.CallOptions{})
		if !errors.Is(err, core.ErrNoSession) {
			t.Fatalf("a condition naming an unknown session beside id: %v, want NO_SESSION (its own target wins)", err)
		}
		args = fmt.Sprintf(`{"id":%q,"conditions":[{"kind":"output","pattern":"^BUILD-DONE","fromLine":0}],"timeoutMs":%d}`, id, waitLimit.Milliseconds())
		res, err := d.Call(testCtx(t), owner, ToolWait, json.RawMessage(args), tools.CallOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r := res.Structured.(ptysession.WaitResult); !r.Fired || r.Target != id || r.Line != "BUILD-DONE" {
			t.Fatalf("wait with id: %+v", r)
		}
	})
}

// TestWaitToolTakesAnIDAlone: pty_wait with an id and no conditions (a
// model's {"id": ...} after a send that returned at its deadline) waits
// until the program exits or wants input, and says which.
func TestWaitToolTakesAnIDAlone(t *testing.T) {
	forEachSeam(t, ptysession.Options{}, func(t *testing.T, s *ptysession.Sessions) {
		d, owner, id := waitToolOnABash(t, s)
		if _, err := s.Send(testCtx(t), owner, core.SessionID(id), ptysession.SendRequest{Data: "exit 5"}); err != nil {
			t.Fatal(err)
		}
		res, err := d.Call(testCtx(t), owner, ToolWait, json.RawMessage(fmt.Sprintf(`{"id":%q}`, id)), tools.CallOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r := res.Structured.(ptysession.WaitResult); !r.Fired || r.Kind != ptysession.WaitExit || r.Status == nil || r.Status.ExitCode != 5 {
			t.Fatalf("wait on an id alone: %+v", r)
		}
		if want := "[" + id + " exited 5 after "; !strings.HasPrefix(res.Text, want) {
			t.Errorf("text %q, want it to start %q", res.Text, want)
		}
		_, err = d.Call(testCtx(t), owner, ToolWait, json.RawMessage(`{}`), tools.CallOptions{})
		if !errors.Is(err, core.ErrInvalidArgument) || !strings.Contains(err.Error(), "conditions") {
			t.Fatalf("neither conditions nor an id: %v, want INVALID_ARGUMENT naming conditions", err)
		}
	})
}

// waitToolOnABash returns a dispatcher serving pty_wait over s, an owner
// and the id of a bash session of that owner.
func waitToolOnABash(t *testing.T, s *ptysession.Sessions) (*tools.Dispatcher, *core.Owner, string) {
	t.Helper()
	d, err := tools.NewDispatcher(tools.Options{ValidateOutput: true}, WaitTool(s))
	if err != nil {
		t.Fatal(err)
	}
	owner := core.NewOwner("model")
	return d, owner, string(mustOpen(t, s, owner, ptysession.OpenRequest{Command: "bash"}).SessionID)
}
