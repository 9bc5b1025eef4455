package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/ptyseam/ptyseam/core"
)

// echoTool is a small real tool: it counts characters of its text
// argument, optionally failing with a core code.
func echoTool() Tool {
	return Tool{
		Definition: Definition{
			Name:        "echo",
			Description: "Echo text back.",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["text"],
				"properties":{"text":{"type":"string"},"repeat":{"type":"integer","minimum":1,"maximum":100000},
				"fail":{"type":"string"}}}`),
			OutputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["text","chars"],
				"properties":{"text":{"type":"string"},"chars":{"type":"integer"}}}`),
		},
		Handler: func(ctx context.Context, owner *core.Owner, args json.RawMessage, progress func(ProgressUpdate)) (Result, error) {
			var a struct {
				Text   string `json:"text"`
				Repeat int    `json:"repeat"`
				Fail   string `json:"fail"`
			}
			if err := DecodeArgs(args, &a); err != nil {
				return Result{}, err
			}
			switch a.Fail {
			case "":
			case "panic":
				panic("boom")
			case "plain":
				return Result{}, errors.New("plain failure")
			case "schema":
				return Result{Structured: map[string]any{"text": 1}}, nil
			default:
				return Result{}, core.Errorf(core.Code(a.Fail), "failed as asked")
			}
			progress(ProgressUpdate{Message: "working", Output: a.Text})
			text := strings.Repeat(a.Text, max(a.Repeat, 1))
			return Result{Structured: map[string]any{"text": text, "chars": len(text)}, Text: text}, nil
		},
	}
}

func newTestDispatcher(t *testing.T, opts Options) *Dispatcher {
	t.Helper()
	opts.ValidateOutput = true
	d, err := NewDispatcher(opts, echoTool())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestCallEncodesStructured checks EncodeStructured: the structured
// result comes back as the bytes encoding/json makes of the handler's
// value, cut or not.
func TestCallEncodesStructured(t *testing.T) {
	d := newTestDispatcher(t, Options{EncodeStructured: true, MaxTextBytes: 1000})
	owner := core.NewOwner("agent")
	res, err := d.Call(context.Background(), owner, "echo", json.RawMessage(`{"text":"<a&b>"}`), CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(map[string]any{"text": "<a&b>", "chars": 5})
	if raw, ok := res.Structured.(json.RawMessage); !ok || string(raw) != string(want) {
		t.Fatalf("structured = %#v, want %s", res.Structured, want)
	}
	res, err = d.Call(context.Background(), owner, "echo", json.RawMessage(`{"text":"x","repeat":5000}`), CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	raw, ok := res.Structured.(json.RawMessage)
	if !ok || len(raw) > 2000 {
		t.Fatalf("cut structured = %T of %d bytes, want a json.RawMessage within 2000", res.Structured, len(raw))
	}
}

func TestCallReturnsResultAndProgress(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	owner := core.NewOwner("agent")
	var got []ProgressUpdate
	res, err := d.Call(context.Background(), owner, "echo", json.RawMessage(`{"text":"hi","repeat":3}`),
		CallOptions{Progress: func(p ProgressUpdate) { got = append(got, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "hihihi" || res.Structured.(map[string]any)["chars"] != 6 {
		t.Fatalf("result = %+v", res)
	}
	if len(got) != 1 || got[0].Output != "hi" {
		t.Fatalf("progress = %+v", got)
	}
	// No progress callback: the handler still gets a non-nil one.
	if _, err := d.Call(context.Background(), owner, "echo", json.RawMessage(`{"text":"x"}`), CallOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestCallBoundsText(t *testing.T) {
	d := newTestDispatcher(t, Options{MaxTextBytes: 1000})
	res, err := d.Call(context.Background(), core.NewOwner("a"), "echo", json.RawMessage(`{"text":"0123456789","repeat":1000}`), CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Text) > 1000 || !strings.Contains(res.Text, "bytes cut ...]") {
		t.Fatalf("text not bounded with a marker: %d bytes", len(res.Text))
	}
	// The structured part is bounded too (twice the text's bound), its
	// shape and numbers kept.
	raw, _ := json.Marshal(res.Structured)
	var back struct {
		Text  string `json:"text"`
		Chars int    `json:"chars"`
	}
	if err := json.Unmarshal(raw, &back); err != nil || len(raw) > 2000 || back.Chars != 10000 || !strings.Contains(back.Text, "bytes cut ...]") {
		t.Fatalf("structured result not bounded with its shape kept: %d bytes, %+v, %v", len(raw), back, err)
	}
}

func TestCallArgumentErrors(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	owner := core.NewOwner("a")
	cases := []struct {
		name, tool, args, want string
	}{
		{"unknown tool", "nope", `{}`, `unknown tool "nope"`},
		{"malformed JSON", "echo", `{"text":`, "malformed JSON"},
		{"trailing data", "echo", `{"text":"a"} 1`, "data after the value"},
		{"not an object", "echo", `["text"]`, "arguments: want object, got array"},
		{"missing required", "echo", `{}`, `field "text": missing required field`},
		{"empty args", "echo", ``, `field "text": missing required field`},
		{"null args", "echo", `null`, `field "text": missing required field`},
		{"wrong type", "echo", `{"text":5}`, `field "text": want string, got integer`},
		{"unknown field", "echo", `{"text":"a","colour":"red"}`, `field "colour": unknown field (accepted: fail, repeat, text)`},
		{"out of range", "echo", `{"text":"a","repeat":0}`, `field "repeat": must be at least 1`},
		{"fraction", "echo", `{"text":"a","repeat":2.5}`, `field "repeat": want integer, got number`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := d.Call(context.Background(), owner, c.tool, json.RawMessage(c.args), CallOptions{})
			var te *ToolError
			if !errors.As(err, &te) {
				t.Fatalf("err = %v, want *ToolError", err)
			}
			if te.Code != "INVALID_ARGUMENT" || !strings.Contains(te.Message, c.want) || te.Hint == "" {
				t.Fatalf("err = %+v, want INVALID_ARGUMENT containing %q with a hint", te, c.want)
			}
			if !errors.Is(err, core.ErrInvalidArgument) {
				t.Fatalf("errors.Is(err, core.ErrInvalidArgument) = false")
			}
		})
	}
	if _, err := d.Call(context.Background(), nil, "echo", json.RawMessage(`{"text":"a"}`), CallOptions{}); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("nil owner: err = %v", err)
	}
}

// TestCallNamesAHugeFieldBriefly: a caller's field name may be any bytes
// of any length; the refusal names its first 64 bytes.
func TestCallNamesAHugeFieldBriefly(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	name, _ := json.Marshal(strings.Repeat("\xff\x01", 1<<19))
	_, err := d.Call(context.Background(), core.NewOwner("a"), "echo", json.RawMessage(`{"text":"a",`+string(name)+`:1}`), CallOptions{})
	var te *ToolError
	if !errors.As(err, &te) || te.Code != "INVALID_ARGUMENT" || !strings.Contains(te.Message, "unknown field") {
		t.Fatalf("err = %v, want INVALID_ARGUMENT naming an unknown field", err)
	}
	if len(te.Message) > 512 || !utf8.ValidString(te.Message) {
		t.Fatalf("the refusal is %d bytes (valid UTF-8 %v), want a short name of the field", len(te.Message), utf8.ValidString(te.Message))
	}
}

func TestCallHandlerErrors(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	owner := core.NewOwner("a")
	cases := []struct {
		fail string
		code string
		is   error
	}{
		{"NO_SESSION", "NO_SESSION", core.ErrNoSession},
		{"FOREIGN_SESSION", "FOREIGN_SESSION", core.ErrForeignSession},
		{"SEND_ACTIVE", "SEND_ACTIVE", core.ErrSendActive},
		{"plain", "INTERNAL", core.ErrInternal},
		{"panic", "INTERNAL", core.ErrInternal},
		{"schema", "INTERNAL", core.ErrInternal},
	}
	for _, c := range cases {
		_, err := d.Call(context.Background(), owner, "echo", json.RawMessage(fmt.Sprintf(`{"text":"a","fail":%q}`, c.fail)), CallOptions{})
		var te *ToolError
		if !errors.As(err, &te) || te.Code != c.code || te.Hint == "" || te.Message == "" {
			t.Errorf("fail=%s: err = %#v, want code %s with message and hint", c.fail, err, c.code)
			continue
		}
		if !errors.Is(err, c.is) {
			t.Errorf("fail=%s: errors.Is(err, %v) = false", c.fail, c.is)
		}
		if !strings.Contains(te.Text(), "Next: ") {
			t.Errorf("fail=%s: Text() = %q has no next step", c.fail, te.Text())
		}
	}
	// The dispatcher still serves after a panic.
	if _, err := d.Call(context.Background(), owner, "echo", json.RawMessage(`{"text":"a"}`), CallOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestAddValidates(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	good := echoTool()
	bad := func(mut func(*Tool)) Tool { t := echoTool(); mut(&t); return t }
	cases := map[string]Tool{
		"duplicate":           good,
		"bad name":            bad(func(t *Tool) { t.Name = "pty open" }),
		"empty name":          bad(func(t *Tool) { t.Name = "" }),
		"long name":           bad(func(t *Tool) { t.Name = strings.Repeat("x", 65) }),
		"no handler":          bad(func(t *Tool) { t.Name = "x"; t.Handler = nil }),
		"no description":      bad(func(t *Tool) { t.Name = "x"; t.Description = " " }),
		"no input schema":     bad(func(t *Tool) { t.Name = "x"; t.InputSchema = nil }),
		"input not object":    bad(func(t *Tool) { t.Name = "x"; t.InputSchema = json.RawMessage(`{"type":"string"}`) }),
		"input bad keyword":   bad(func(t *Tool) { t.Name = "x"; t.InputSchema = json.RawMessage(`{"type":"object","$ref":"#"}`) }),
		"output not object":   bad(func(t *Tool) { t.Name = "x"; t.OutputSchema = json.RawMessage(`{"type":"array"}`) }),
		"output malformed":    bad(func(t *Tool) { t.Name = "x"; t.OutputSchema = json.RawMessage(`{"type":`) }),
		"input no type field": bad(func(t *Tool) { t.Name = "x"; t.InputSchema = json.RawMessage(`{}`) }),
	}
	for name, tool := range cases {
		if err := d.Add(tool); !errors.Is(err, core.ErrInvalidArgument) {
			t.Errorf("%s: Add = %v, want INVALID_ARGUMENT", name, err)
		}
	}
	if _, err := NewDispatcher(Options{}, good, good); err == nil {
		t.Errorf("NewDispatcher with a duplicate: no error")
	}
	if defs := d.Definitions(); len(defs) != 1 || defs[0].Name != "echo" {
		t.Fatalf("Definitions = %+v", defs)
	}
	if _, ok := d.Lookup("echo"); !ok {
		t.Fatal("Lookup(echo) failed")
	}
	if _, ok := d.Lookup("x"); ok {
		t.Fatal("Lookup(x) found a tool that failed to register")
	}
}

func TestDefinitionJSON(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	b, err := json.Marshal(d.Definitions()[0])
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"name", "description", "inputSchema", "outputSchema"} {
		if _, ok := m[k]; !ok {
			t.Errorf("definition JSON lacks %q: %s", k, b)
		}
	}
}

func TestConcurrentAddAndCall(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	owner := core.NewOwner("a")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			tool := echoTool()
			tool.Name = fmt.Sprintf("echo%d", i)
			if err := d.Add(tool); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := d.Call(context.Background(), owner, "echo", json.RawMessage(`{"text":"a"}`), CallOptions{}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := len(d.Definitions()); n != 9 {
		t.Fatalf("%d tools, want 9", n)
	}
}

func TestDecodeArgs(t *testing.T) {
	var a struct {
		ID    string `json:"id"`
		Lines int    `json:"lines"`
	}
	cases := map[string]string{
		`{"id":1}`:                       `field "id"`,
		`{"lines":"x"}`:                  `field "lines"`,
		`{"other":1}`:                    `field "other": unknown field`,
		`[1]`:                            "want a JSON object",
		`{"id":"a"} {}`:                  "data after",
		`{"id":`:                         "arguments",
		`{"lines":1e400}`:                `field "lines"`,
		`{"lines":99999999999999999999}`: `field "lines"`,
	}
	for doc, want := range cases {
		err := DecodeArgs(json.RawMessage(doc), &a)
		var te *ToolError
		if !errors.As(err, &te) || te.Code != "INVALID_ARGUMENT" || !strings.Contains(te.Message, want) {
			t.Errorf("DecodeArgs(%s) = %v, want INVALID_ARGUMENT containing %q", doc, err, want)
		}
	}
	if err := DecodeArgs(nil, &a); err != nil {
		t.Errorf("DecodeArgs(nil) = %v", err)
	}
}

func TestAsToolError(t *testing.T) {
	if AsToolError(nil, "") != nil {
		t.Fatal("AsToolError(nil) != nil")
	}
	te := AsToolError(core.Errorf(core.CodeNoSession, "gone"), "look elsewhere")
	if te.Code != "NO_SESSION" || te.Message != "gone" || te.Hint != "look elsewhere" {
		t.Fatalf("%+v", te)
	}
	te2 := AsToolError(fmt.Errorf("wrapped: %w", te), "other")
	if te2 != te {
		t.Fatal("a wrapped *ToolError was not returned as is")
	}
	if errors.Is(te, core.ErrForeignSession) {
		t.Fatal("NO_SESSION tool error matched ErrForeignSession")
	}
}

func TestCheckInput(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	if err := d.CheckInput("echo", json.RawMessage(`{"text":"a","repeat":3}`)); err != nil {
		t.Fatalf("valid arguments: %v", err)
	}
	var ve *ValidationError
	if err := d.CheckInput("echo", json.RawMessage(`{"text":"a","repeat":0}`)); !errors.As(err, &ve) || ve.Field != "repeat" {
		t.Fatalf("repeat 0: %v, want a *ValidationError naming repeat", err)
	}
	if err := d.CheckInput("nope", json.RawMessage(`{}`)); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("unknown tool: %v", err)
	}
}
