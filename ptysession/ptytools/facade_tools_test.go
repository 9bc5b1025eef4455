package ptytools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
	"github.com/ptyseam/ptyseam/testharness"
)

// BenchmarkCheckInput measures the input schema validation that the
// dispatcher runs before each call, for pty_send and pty_list.
func BenchmarkCheckInput(b *testing.B) {
	s, _, _, id := benchSession(b)
	d, err := tools.NewDispatcher(tools.Options{}, Tools(s)...)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, args string }{
		{ToolSend, `{"id":"` + string(id) + `","data":"true"}`},
		{ToolList, `{}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := d.CheckInput(c.name, json.RawMessage(c.args)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDeadlineArgs checks the tool fields: the schema carries the
// deployer's maximum, and the dispatcher refuses what breaks it naming the
// field.
func TestDeadlineArgs(t *testing.T) {
	s := ptysession.New(nil, ptysession.Options{MaxTimeout: time.Minute})
	d, err := tools.NewDispatcher(tools.Options{}, Tools(s)...)
	if err != nil {
		t.Fatal(err)
	}
	def, _ := d.Lookup(ToolSend)
	if !strings.Contains(string(def.InputSchema), `"maximum":60000`) || !strings.Contains(def.Description, "60000") {
		t.Fatalf("pty_send does not state the maximum:\n%s\n%s", def.Description, def.InputSchema)
	}
	owner := core.NewOwner("args")
	for _, c := range []struct{ tool, args, field string }{
		{ToolSend, `{"id":"x","data":"y","timeoutMs":60001}`, `"timeoutMs"`},
		{ToolSend, `{"id":"x","data":"y","quietMs":0}`, `"quietMs"`},
		{ToolOpen, `{"command":"bash","timeoutMs":-5}`, `"timeoutMs"`},
		{ToolOpen, `{"command":"bash","timeoutMs":"soon"}`, `"timeoutMs"`},
	} {
		_, err := d.Call(testCtx(t), owner, c.tool, json.RawMessage(c.args), tools.CallOptions{})
		te := tools.AsToolError(err, "")
		if te == nil || te.Code != string(core.CodeInvalidArgument) || !strings.Contains(te.Message, c.field) {
			t.Errorf("%s %s: %v, want INVALID_ARGUMENT naming %s", c.tool, c.args, err, c.field)
		}
	}
}

func TestToolSendDuringAndAfterTakeOver(t *testing.T) {
	schemas := resolveSchemas(t)
	s, err := ptysession.NewLocal(ptysession.Options{})
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
func waitFor(t *testing.T, s *ptysession.Sessions, owner *core.Owner, id core.SessionID, from int64, want string) {
	t.Helper()
	r, err := s.Wait(testCtx(t), owner, ptysession.WaitRequest{Conditions: []ptysession.WaitCondition{{Kind: ptysession.WaitOutput, Target: string(id), Pattern: want, FromLine: &from}}})
	if err != nil || !r.Fired {
		t.Fatalf("waiting for %q: %+v %v", want, r, err)
	}
}

func TestPtyTailAfterPtySend(t *testing.T) {
	forEachSeam(t, ptysession.Options{}, func(t *testing.T, s *ptysession.Sessions) {
		d := newDispatcher(t, s)
		owner := core.NewOwner("model")
		ctx := testCtx(t)
		res, err := d.Call(ctx, owner, ToolOpen, json.RawMessage(`{"command":"bash"}`), tools.CallOptions{})
		if err != nil {
			t.Fatal(err)
		}
		id := res.Structured.(ptysession.OpenResult).SessionID
		t.Cleanup(func() { closeAndCheck(t, s, owner, res.Structured.(ptysession.OpenResult)) })
		waitPrompt(t, s, owner, id)
		if _, err := d.Call(ctx, owner, ToolTail, json.RawMessage(`{"id":"`+string(id)+`"}`), tools.CallOptions{}); err != nil {
			t.Fatal(err)
		}
		sent, err := d.Call(ctx, owner, ToolSend, json.RawMessage(`{"id":"`+string(id)+`","data":"echo once-$((1+1))"}`), tools.CallOptions{})
		if err != nil || !strings.Contains(sent.Text, "once-2\n") {
			t.Fatalf("pty_send %+v %v", sent, err)
		}
		tail, err := d.Call(ctx, owner, ToolTail, json.RawMessage(`{"id":"`+string(id)+`"}`), tools.CallOptions{})
		if err != nil || strings.Contains(tail.Text, "once-2") {
			t.Fatalf("pty_tail after pty_send returned the send's output again: %q %v", tail.Text, err)
		}
	})
}

// BenchmarkDispatchTail measures pty_tail through the dispatcher (schema
// validation, decoding, rendering, bounding) against Tail called directly;
// "dispatch/direct" is the ratio.
func BenchmarkDispatchTail(b *testing.B) {
	s, _, owner, id := benchSession(b)
	ctx := context.Background()
	d, err := tools.NewDispatcher(tools.Options{}, Tools(s)...)
	if err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(fmt.Sprintf(`{"id":%q,"lines":50}`, id))
	const n = 5000
	start := time.Now()
	for range n {
		if _, err := s.Tail(ctx, owner, id, 50); err != nil {
			b.Fatal(err)
		}
	}
	direct := time.Since(start) / n
	b.ResetTimer()
	for b.Loop() {
		if _, err := d.Call(ctx, owner, ToolTail, args, tools.CallOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	dispatch := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(direct.Nanoseconds()), "direct-ns/op")
	b.ReportMetric(float64(dispatch)/float64(direct), "dispatch/direct")
}

// TestSignalToolOutputMovesTheTailPosition is the same through the
// pty_signal tool: its output is not returned again by pty_tail.
func TestSignalToolOutputMovesTheTailPosition(t *testing.T) {
	schemas := resolveSchemas(t)
	onService(t, func(t *testing.T, s *ptysession.Sessions) {
		d := newDispatcher(t, s)
		owner := core.NewOwner("model")
		r := mustOpen(t, s, owner, ptysession.OpenRequest{Command: "bash"})
		id := string(r.SessionID)
		if res, err := s.Send(testCtx(t), owner, r.SessionID, ptysession.SendRequest{Data: "sleep 300", QuietWindow: 200 * time.Millisecond}); err != nil || res.WaitReason == core.WaitPrompt {
			t.Fatalf("sleep 300: %+v %v", res, err)
		}
		testharness.WaitForegroundJob(t, r.PID) // as in TestSignalOutputMovesTheTailPosition
		_, m := call(t, d, schemas, owner, ToolSignal, fmt.Sprintf(`{"id":%q,"signal":"SIGINT"}`, id))
		if out, _ := m["output"].(string); m["delivered"] != true || strings.TrimSpace(lastLine(out)) == "" {
			t.Fatalf("signal %v, want the prompt that followed in output", m)
		}
		res, m := call(t, d, schemas, owner, ToolTail, fmt.Sprintf(`{"id":%q}`, id))
		if res.Text != "[no new output]" || m["lines"] != 0.0 {
			t.Fatalf("tail after the signal %v / %q", m, res.Text)
		}
	})
}

// A model often ends pty_send's data with a line end (bg_send's data needs
// one to press Enter). With submit on (the default) that line end is the
// Enter submit presses, not a second one typed ahead: a program's next
// read would take it as an empty answer (a confirmation's default, the
// end of a Python block).
func TestSendDataEndingInALineEndIsSubmittedOnce(t *testing.T) {
	schemas := resolveSchemas(t)
	forEachSeam(t, ptysession.Options{}, func(t *testing.T, s *ptysession.Sessions) {
		d := newDispatcher(t, s)
		owner := core.NewOwner("model")
		_, m := call(t, d, schemas, owner, ToolOpen, `{"command":"bash"}`)
		id := m["sessionId"].(string)
		t.Cleanup(func() { _, _ = s.Close(context.Background(), owner, core.SessionID(id)) })
		waitPrompt(t, s, owner, core.SessionID(id))
		var out strings.Builder
		for _, data := range []string{`read -r a; read -r b; echo \"[$a][$b]\"\n`, `first\n`, `second\r\n`} {
			_, m = call(t, d, schemas, owner, ToolSend, fmt.Sprintf(`{"id":%q,"data":"%s"}`, id, data))
			out.WriteString(m["delta"].(string))
		}
		if !strings.Contains(out.String(), "[first][second]") {
			t.Fatalf("each answer ending in a line end was not one line: %q", out.String())
		}
	})
}
