package ptytools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// resolved holds every pty tool's schemas as resolved by an independent
// draft 2020-12 validator (the one the MCP SDK uses).
type resolved struct{ in, out *jsonschema.Resolved }

func resolveSchemas(t *testing.T) map[string]resolved {
	t.Helper()
	out := map[string]resolved{}
	for _, tool := range Tools(ptysession.New(nil, ptysession.Options{})) {
		var r resolved
		for _, doc := range []struct {
			raw json.RawMessage
			dst **jsonschema.Resolved
		}{{tool.InputSchema, &r.in}, {tool.OutputSchema, &r.out}} {
			var sch jsonschema.Schema
			if err := json.Unmarshal(doc.raw, &sch); err != nil {
				t.Fatalf("%s: %v", tool.Name, err)
			}
			if sch.Type != "object" || sch.AdditionalProperties == nil {
				t.Fatalf("%s: schema %s is not a closed object", tool.Name, doc.raw)
			}
			rs, err := sch.Resolve(nil)
			if err != nil {
				t.Fatalf("%s: %s does not resolve: %v", tool.Name, doc.raw, err)
			}
			*doc.dst = rs
		}
		out[tool.Name] = r
	}
	return out
}

func TestToolDefinitions(t *testing.T) {
	schemas := resolveSchemas(t)
	tl := Tools(ptysession.New(nil, ptysession.Options{}))
	want := []string{ToolOpen, ToolSend, ToolTail, ToolClose, ToolList, ToolRead, ToolSignal}
	if len(tl) != len(want) {
		t.Fatalf("%d tools", len(tl))
	}
	for i, tool := range tl {
		if tool.Name != want[i] || len(tool.Description) < 80 || tool.Handler == nil {
			t.Errorf("tool %d: %s, description %q", i, tool.Name, tool.Description)
		}
	}
	// Field names as in the seed.
	props := func(name string, out bool) map[string]bool {
		for _, tool := range tl {
			if tool.Name == name {
				doc := tool.InputSchema
				if out {
					doc = tool.OutputSchema
				}
				var m struct {
					Properties map[string]any `json:"properties"`
				}
				_ = json.Unmarshal(doc, &m)
				got := map[string]bool{}
				for k := range m.Properties {
					got[k] = true
				}
				return got
			}
		}
		return nil
	}
	for _, c := range []struct {
		tool   string
		out    bool
		fields []string
	}{
		{ToolOpen, false, []string{"command", "cwd", "env"}},
		{ToolOpen, true, []string{"sessionId", "pid", "status", "initialOutput"}},
		{ToolSend, false, []string{"id", "data", "submit"}},
		{ToolSend, true, []string{"delta", "status", "waitReason", "truncated"}},
		{ToolTail, false, []string{"id", "lines"}},
		{ToolTail, true, []string{"text", "lines", "truncated", "skipped"}},
		{ToolClose, false, []string{"id"}},
		{ToolClose, true, []string{"closed"}},
	} {
		got := props(c.tool, c.out)
		for _, f := range c.fields {
			if !got[f] {
				t.Errorf("%s (output %v) lacks field %q", c.tool, c.out, f)
			}
		}
	}
	// The dispatcher accepts them, and the independent validator agrees
	// with the dispatcher's on sample arguments.
	d := newDispatcher(t, ptysession.New(nil, ptysession.Options{}))
	samples := map[string][]string{
		ToolOpen:   {`{"command":"bash"}`, `{"command":"x","cwd":"/","env":{"A":"1"}}`, `{}`, `{"command":1}`, `{"command":"x","env":{"A":1}}`, `{"command":"x","extra":1}`},
		ToolSend:   {`{"id":"x","data":"y"}`, `{"id":"x","data":"y","submit":false}`, `{"id":"x"}`, `{"id":"x","data":"y","submit":"no"}`},
		ToolTail:   {`{"id":"x"}`, `{"id":"x","lines":10000}`, `{"id":"x","lines":-1}`, `{"id":"x","lines":10001}`, `{"id":"x","lines":"5"}`},
		ToolClose:  {`{"id":"x"}`, `{"id":""}`, `{}`},
		ToolList:   {`{}`, `{"id":"x"}`},
		ToolRead:   {`{"id":"x","start":3,"lines":5,"newest":false}`, `{"id":"x","start":-1}`},
		ToolSignal: {`{"id":"x","signal":"SIGINT"}`, `{"id":"x","signal":"SIGUSR1"}`, `{"id":"x"}`},
	}
	for name, docs := range samples {
		for _, doc := range docs {
			var v any
			if err := json.Unmarshal([]byte(doc), &v); err != nil {
				t.Fatal(err)
			}
			theirs := schemas[name].in.Validate(v)
			ours := d.CheckInput(name, json.RawMessage(doc))
			if (theirs == nil) != (ours == nil) {
				t.Errorf("%s %s: jsonschema-go says %v, the dispatcher says %v", name, doc, theirs, ours)
			}
		}
	}
}

func newDispatcher(t *testing.T, s *ptysession.Sessions) *tools.Dispatcher {
	t.Helper()
	d, err := tools.NewDispatcher(tools.Options{ValidateOutput: true}, Tools(s)...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// call runs a tool and checks its structured result against the
// independent validator.
func call(t *testing.T, d *tools.Dispatcher, schemas map[string]resolved, owner *core.Owner, name, args string) (tools.Result, map[string]any) {
	t.Helper()
	res, err := d.Call(testCtx(t), owner, name, json.RawMessage(args), tools.CallOptions{})
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	b, err := json.Marshal(res.Structured)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if err := schemas[name].out.Validate(m); err != nil {
		t.Fatalf("%s result %s breaks its output schema: %v", name, b, err)
	}
	return res, m
}

func TestToolsEndToEnd(t *testing.T) {
	schemas := resolveSchemas(t)
	forEachSeam(t, ptysession.Options{}, func(t *testing.T, s *ptysession.Sessions) {
		d := newDispatcher(t, s)
		owner := core.NewOwner("model")
		res, m := call(t, d, schemas, owner, ToolOpen, `{"command":"bash","env":{"GREETING":"hi 'there'"}}`)
		id := m["sessionId"].(string)
		t.Cleanup(func() { _, _ = s.Close(context.Background(), owner, core.SessionID(id)) })
		if !strings.HasPrefix(res.Text, "[session "+id+" opened, pid ") {
			t.Fatalf("open text %q", res.Text)
		}
		waitPrompt(t, s, owner, core.SessionID(id))
		var sendText string
		for range settleTries {
			res, m = call(t, d, schemas, owner, ToolSend, fmt.Sprintf(`{"id":%q,"data":"echo \"$GREETING\""}`, id))
			if m["waitReason"] == "prompt" && strings.Contains(m["delta"].(string), "\n") {
				sendText = res.Text
				break
			}
			waitPrompt(t, s, owner, core.SessionID(id))
		}
		if !strings.HasPrefix(sendText, "[prompt; command exit code 0]\n") || !strings.Contains(sendText, "\nhi 'there'\n") {
			t.Fatalf("send text %q", sendText)
		}
		// The send's output is not returned again.
		res, m = call(t, d, schemas, owner, ToolTail, fmt.Sprintf(`{"id":%q}`, id))
		if res.Text != "[no new output]" || m["lines"] != 0.0 {
			t.Fatalf("second tail %v / %q", m, res.Text)
		}
		res, m = call(t, d, schemas, owner, ToolList, `{}`)
		if l := m["sessions"].([]any); len(l) != 1 || !strings.HasPrefix(res.Text, "[1 session: "+id+" running]\n"+id+"  shell  pid ") {
			t.Fatalf("list %v / %q", m, res.Text)
		}
		res, m = call(t, d, schemas, owner, ToolRead, fmt.Sprintf(`{"id":%q,"start":0,"lines":2}`, id))
		if m["lines"] != 2.0 || !strings.HasPrefix(res.Text, "[lines 0-1 of ") {
			t.Fatalf("read %v / %q", m, res.Text)
		}
		res, m = call(t, d, schemas, owner, ToolSignal, fmt.Sprintf(`{"id":%q,"signal":"SIGINT"}`, id))
		if m["delivered"] != true || !strings.HasPrefix(res.Text, "[SIGINT delivered to process group ") {
			t.Fatalf("signal %v / %q", m, res.Text)
		}
		res, m = call(t, d, schemas, owner, ToolClose, fmt.Sprintf(`{"id":%q}`, id))
		if m["closed"] != true || res.Text != "session "+id+" closed" {
			t.Fatalf("close %v / %q", m, res.Text)
		}
		res, m = call(t, d, schemas, owner, ToolClose, fmt.Sprintf(`{"id":%q}`, id))
		if m["closed"] != false || !strings.Contains(res.Text, "already closed") {
			t.Fatalf("second close %v / %q", m, res.Text)
		}
		if res, _ = call(t, d, schemas, owner, ToolList, `{}`); res.Text != "no open sessions" {
			t.Fatalf("list after close %q", res.Text)
		}
	})
}

func TestToolBadInput(t *testing.T) {
	forEachSeam(t, ptysession.Options{}, func(t *testing.T, s *ptysession.Sessions) {
		d := newDispatcher(t, s)
		owner, other := core.NewOwner("model"), core.NewOwner("other model")
		mine := mustOpen(t, s, owner, ptysession.OpenRequest{Command: "bash"})
		theirs := mustOpen(t, s, other, ptysession.OpenRequest{Command: "bash"})
		id, fid := string(mine.SessionID), string(theirs.SessionID)
		const unknown = "pty_nosuchsessionxxxxxxxxxxxxxx"
		huge, _ := json.Marshal(strings.Repeat("x", core.DefaultMaxSendBytes))
		cases := []struct {
			tool, args, code, inMessage, inHint string
		}{
			{"pty_nope", `{}`, "INVALID_ARGUMENT", `unknown tool "pty_nope"`, "pty_open"},
			{ToolOpen, `{`, "INVALID_ARGUMENT", "malformed JSON", ""},
			{ToolOpen, `{"command":""}`, "INVALID_ARGUMENT", `field "command"`, ""},
			{ToolOpen, `{"command":["ls"]}`, "INVALID_ARGUMENT", `field "command": want string, got array`, ""},
			{ToolOpen, `{"command":"bash","shell":"zsh"}`, "INVALID_ARGUMENT", `field "shell": unknown field`, ""},
			{ToolOpen, `{"command":"bash","env":{"A":1}}`, "INVALID_ARGUMENT", `field "env.A": want string`, ""},
			{ToolOpen, `{"command":"bash","env":{"1A":"x"}}`, "INVALID_ARGUMENT", `env: invalid variable name "1A"`, ""},
			{ToolOpen, `{"command":"bash","env":{"A":"x\u0000"}}`, "INVALID_ARGUMENT", "NUL", ""},
			{ToolSend, `{"id":"` + id + `"}`, "INVALID_ARGUMENT", `field "data": missing required field`, ""},
			{ToolSend, `{"id":"` + id + `","data":1}`, "INVALID_ARGUMENT", `field "data": want string, got integer`, ""},
			{ToolSend, `{"id":"` + id + `","data":"x","submit":"yes"}`, "INVALID_ARGUMENT", `field "submit": want boolean`, ""},
			{ToolSend, `{"id":"` + id + `","data":"","submit":false}`, "INVALID_ARGUMENT", "nothing to send", ""},
			{ToolSend, `{"id":"` + id + `","data":"x","timeout_ms":500}`, "INVALID_ARGUMENT", `field "timeout_ms": unknown field, did you mean "timeoutMs"? (accepted: `, ""},
			{ToolSend, `{"id":"` + id + `","data":"x","Quiet-MS":500}`, "INVALID_ARGUMENT", `did you mean "quietMs"?`, ""},
			{ToolSend, `{"id":"` + id + `","data":` + string(huge) + `}`, "INVALID_ARGUMENT", "exceeds the limit", ""},
			{ToolSend, `{"id":"` + unknown + `","data":"x"}`, "NO_SESSION", "", "pty_list"},
			{ToolSend, `{"id":"` + fid + `","data":"x"}`, "FOREIGN_SESSION", "", "pty_open returned"},
			{ToolTail, `{"id":"` + id + `","lines":-1}`, "INVALID_ARGUMENT", `field "lines": must be at least 0`, ""},
			{ToolTail, `{"id":"` + id + `","lines":10001}`, "INVALID_ARGUMENT", `field "lines": must be at most 10000`, ""},
			{ToolTail, `{"id":"` + id + `","lines":2.5}`, "INVALID_ARGUMENT", `field "lines": want integer`, ""},
			{ToolTail, `{"id":"` + unknown + `"}`, "NO_SESSION", "", "pty_list"},
			{ToolTail, `{"id":"` + fid + `"}`, "FOREIGN_SESSION", "", ""},
			{ToolTail, `{"lines":5}`, "INVALID_ARGUMENT", `field "id": missing required field`, ""},
			{ToolClose, `{"id":"` + unknown + `"}`, "NO_SESSION", "", ""},
			{ToolClose, `{"id":"` + fid + `"}`, "FOREIGN_SESSION", "", ""},
			{ToolClose, `{"id":""}`, "INVALID_ARGUMENT", `field "id"`, ""},
			{ToolList, `{"id":"x"}`, "INVALID_ARGUMENT", `field "id": unknown field (no fields are accepted here)`, ""},
			{ToolRead, `{"id":"` + id + `","start":-1}`, "INVALID_ARGUMENT", `field "start": must be at least 0`, ""},
			{ToolRead, `{"id":"` + fid + `"}`, "FOREIGN_SESSION", "", ""},
			{ToolSignal, `{"id":"` + id + `","signal":"SIGUSR1"}`, "INVALID_ARGUMENT", `field "signal": must be one of "SIGINT"`, ""},
			{ToolSignal, `{"id":"` + id + `","signal":"SIGKILL"}`, "SIGNAL_REFUSED", "", "pty_close"},
			{ToolSignal, `{"id":"` + unknown + `","signal":"SIGINT"}`, "NO_SESSION", "", ""},
		}
		for _, c := range cases {
			_, err := d.Call(testCtx(t), owner, c.tool, json.RawMessage(c.args), tools.CallOptions{})
			var te *tools.ToolError
			if !errors.As(err, &te) {
				t.Errorf("%s %.80s: err %v, want a *tools.ToolError", c.tool, c.args, err)
				continue
			}
			if te.Code != c.code || !strings.Contains(te.Message, c.inMessage) || !strings.Contains(te.Hint, c.inHint) || te.Hint == "" {
				t.Errorf("%s %.80s: got %s / %q / %q; want %s containing %q, hint containing %q", c.tool, c.args, te.Code, te.Message, te.Hint, c.code, c.inMessage, c.inHint)
			}
			if !errors.Is(err, &core.Error{Code: core.Code(c.code)}) {
				t.Errorf("%s: errors.Is against the %s sentinel failed", c.tool, c.code)
			}
		}
		if l, err := s.List(testCtx(t), owner); err != nil || len(l.Sessions) != 1 {
			t.Fatalf("bad opens left sessions: %+v %v", l, err)
		}
		assertHealthy(t, s, owner, mine.SessionID)
		assertHealthy(t, s, other, theirs.SessionID)
	})
}

func TestToolSendProgressAndTextCap(t *testing.T) {
	forEachSeam(t, ptysession.Options{ProgressInterval: 30 * time.Millisecond}, func(t *testing.T, s *ptysession.Sessions) {
		// The structured bound is its own: the text cap alone does not cut the delta.
		d, err := tools.NewDispatcher(tools.Options{MaxTextBytes: 600, MaxStructuredBytes: 64 << 10}, Tools(s)...)
		if err != nil {
			t.Fatal(err)
		}
		owner := core.NewOwner("model")
		r := mustOpen(t, s, owner, ptysession.OpenRequest{Command: "bash"})
		waitPrompt(t, s, owner, r.SessionID)
		args := json.RawMessage(fmt.Sprintf(`{"id":%q,"data":"for i in $(seq 1 8); do echo step-$i; sleep 0.05; done; seq 1 400"}`, r.SessionID))
		for range settleTries {
			var mu sync.Mutex
			var updates []tools.ProgressUpdate
			res, err := d.Call(testCtx(t), owner, ToolSend, args, tools.CallOptions{Progress: func(p tools.ProgressUpdate) {
				mu.Lock()
				updates = append(updates, p)
				mu.Unlock()
			}})
			if err != nil {
				t.Fatal(err)
			}
			sr := res.Structured.(ptysession.SendResult)
			if sr.WaitReason != core.WaitPrompt || !strings.Contains(sr.Delta, "\n") {
				t.Logf("early settle: %s", sr.WaitReason)
				waitPrompt(t, s, owner, r.SessionID)
				continue
			}
			if len(updates) == 0 || !strings.Contains(updates[0].Output, "step-") || updates[0].Message == "" {
				t.Fatalf("progress updates %+v", updates)
			}
			if len(res.Text) > 600 || !strings.Contains(res.Text, " bytes cut ...]") || !strings.HasPrefix(res.Text, "[prompt;") || !strings.HasSuffix(res.Text, "400\n/work/main/ptysession# ") && !strings.Contains(res.Text, "400\n") {
				t.Fatalf("capped text (%d bytes) %q", len(res.Text), res.Text)
			}
			if !strings.Contains(sr.Delta, "step-1\n") {
				t.Fatalf("the structured delta was cut: %q", sr.Delta[:100])
			}
			return
		}
		t.Fatal("every try settled early")
	})
}
