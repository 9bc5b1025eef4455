package tools

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

func TestSchemaBuilders(t *testing.T) {
	o := Object([]string{"id"}, Obj{
		"id":    String("The id."),
		"lines": Integer("Lines.").Min(0).Max(10),
		"pid":   Integer("Pid.").Min(1),
		"code":  Integer("Code."),
		"all":   Boolean("Everything."),
		"args":  StringList("Arguments."),
		"opt":   Object(nil, Obj{}),
	})
	got, err := SchemaJSON(o)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"additionalProperties":false,"properties":{` +
		`"all":{"description":"Everything.","type":"boolean"},` +
		`"args":{"description":"Arguments.","items":{"type":"string"},"type":"array"},` +
		`"code":{"description":"Code.","type":"integer"},` +
		`"id":{"description":"The id.","type":"string"},` +
		`"lines":{"description":"Lines.","maximum":10,"minimum":0,"type":"integer"},` +
		`"opt":{"additionalProperties":false,"properties":{},"type":"object"},` +
		`"pid":{"description":"Pid.","minimum":1,"type":"integer"}},` +
		`"required":["id"],"type":"object"}`
	if string(got) != want {
		t.Fatalf("schema\n got %s\nwant %s", got, want)
	}
	if !json.Valid(MustSchemaJSON(o)) {
		t.Fatal("MustSchemaJSON gave invalid JSON")
	}

	// The built schema is one the dispatcher accepts and enforces.
	d := newTestDispatcher(t, Options{})
	err = d.Add(Tool{
		Definition: Definition{Name: "built", Description: "A tool with a built schema.", InputSchema: got},
		Handler: func(context.Context, *core.Owner, json.RawMessage, func(ProgressUpdate)) (Result, error) {
			return Result{Text: "ok"}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	owner := core.NewOwner("t")
	if _, err := d.Call(context.Background(), owner, "built", json.RawMessage(`{"id":"a","lines":3}`), CallOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = d.Call(context.Background(), owner, "built", json.RawMessage(`{"id":"a","lines":11}`), CallOptions{})
	if !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("lines 11: %v", err)
	}
}

func TestSchemaJSONFails(t *testing.T) {
	if _, err := SchemaJSON(Obj{"minimum": math.NaN()}); err == nil {
		t.Fatal("a NaN marshalled")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("MustSchemaJSON did not panic")
		}
	}()
	MustSchemaJSON(Obj{"f": func() {}})
}

func TestCoreSchemas(t *testing.T) {
	status, err := ParseSchema(MustSchemaJSON(StatusSchema()))
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []core.Status{{Kind: core.StatusRunning}, core.ExitedWithCode(3), core.ExitedWithSignal("SIGKILL")} {
		b, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		if err := status.Validate(b); err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
	wait, err := ParseSchema(MustSchemaJSON(WaitReasonSchema("Why.")))
	if err != nil {
		t.Fatal(err)
	}
	if err := wait.Validate([]byte(`"` + string(core.WaitStdinRead) + `"`)); err != nil {
		t.Error(err)
	}
	if err := wait.Validate([]byte(`"napping"`)); err == nil {
		t.Error("an unknown wait reason validated")
	}
}
