package ptysession

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

func TestToolSendDuringAndAfterTakeOver(t *testing.T) {
	schemas := resolveSchemas(t)
	s, err := NewLocal(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	d := newDispatcher(t, s)
	owner := core.NewOwner("model")
	_, m := call(t, d, schemas, owner, ToolOpen, `{"command":"bash"}`)
	id := core.SessionID(m["sessionId"].(string))
	waitPrompt(t, s, owner, id)

	c, err := s.TakeOver(owner, id, "alice")
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Call(testCtx(t), owner, ToolSend, json.RawMessage(fmt.Sprintf(`{"id":%q,"data":"echo model"}`, id)), tools.CallOptions{})
	var te *tools.ToolError
	if !errors.As(err, &te) || te.Code != string(core.CodeHumanInControl) || !strings.Contains(te.Text(), "try again after they hand back") || te.Hint == "" {
		t.Fatalf("send under control: %v", err)
	}
	before := newestLine(t, s, owner, id)
	if _, err := c.Write(testCtx(t), []byte("echo person-$((6*7))\r")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, s, owner, id, before, "person-42")
	c.HandBack()
	res, m := call(t, d, schemas, owner, ToolSend, fmt.Sprintf(`{"id":%q,"data":"echo model-back"}`, id))
	hb, ok := m["handBack"].(map[string]any)
	if !ok || hb["person"] != "alice" || !strings.Contains(hb["output"].(string), "person-42") {
		t.Fatalf("handBack %v", m["handBack"])
	}
	if !strings.Contains(res.Text, "alice was in control of this session") || !strings.Contains(res.Text, "model-back") {
		t.Fatalf("send text %q", res.Text)
	}
	_, m = call(t, d, schemas, owner, ToolSend, fmt.Sprintf(`{"id":%q,"data":"echo again"}`, id))
	if _, ok := m["handBack"]; ok {
		t.Fatalf("the note came twice: %v", m)
	}
}

// waitFor waits until a line of the session's output from line from on
// matches want (output written before the wait began counts: the line
// number is taken before the write).
func waitFor(t *testing.T, s *Sessions, owner *core.Owner, id core.SessionID, from int64, want string) {
	t.Helper()
	r, err := s.Wait(testCtx(t), owner, WaitRequest{Conditions: []WaitCondition{{Kind: WaitOutput, Target: string(id), Pattern: want, FromLine: &from}}})
	if err != nil || !r.Fired {
		t.Fatalf("waiting for %q: %+v %v", want, r, err)
	}
}
