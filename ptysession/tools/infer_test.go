package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

type inferKind string

type inferArgs struct {
	ID     string            `json:"id" jsonschema:"The id."`
	Lines  int               `json:"lines,omitempty" jsonschema:"Lines."`
	Submit *bool             `json:"submit,omitempty"`
	Env    map[string]string `json:"env,omitempty"`
	Keys   []string          `json:"keys,omitempty"`
	Kind   inferKind         `json:"kind,omitempty"`
	Status core.Status       `json:"status"`
	Nested struct {
		Port int `json:"port,omitempty"`
	} `json:"nested"`
}

func TestInferSchema(t *testing.T) {
	doc, err := InferSchema[inferArgs](
		EnumOf[inferKind]("a", "b"),
		NonEmpty("id"), Range("lines", 0, 10), Default("submit", true),
		Items("keys", 0, 3), Length("keys[]", 1, 0), Range("nested.port", 1, 65535),
		Describe("env", "Extra variables."),
	)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Required   []string                   `json:"required"`
		Additional bool                       `json:"additionalProperties"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(doc, &got); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Required, ",") != "id,status,nested" || got.Additional {
		t.Fatalf("required %v, additionalProperties %v in %s", got.Required, got.Additional, doc)
	}
	for name, want := range map[string]string{
		"id":     `{"type":"string","description":"The id.","minLength":1}`,
		"lines":  `{"type":"integer","description":"Lines.","minimum":0,"maximum":10}`,
		"submit": `{"type":["null","boolean"],"default":true}`,
		"env":    `{"type":"object","description":"Extra variables.","additionalProperties":{"type":"string"}}`,
		"keys":   `{"type":["null","array"],"items":{"type":"string","minLength":1},"maxItems":3}`,
		"kind":   `{"type":"string","enum":["a","b"]}`,
	} {
		if string(got.Properties[name]) != want {
			t.Errorf("%s: %s, want %s", name, got.Properties[name], want)
		}
	}

	// The inferred schema is one the dispatcher enforces, and the core
	// status schema accepts every status as it marshals.
	c, err := newChecker(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []core.Status{core.Running, core.ExitedWithCode(3), core.ExitedWithSignal("SIGKILL"), {Kind: core.StatusExited, ExitCode: -1, Reason: "connection lost"}} {
		b, _ := json.Marshal(inferArgs{ID: "x", Status: st})
		if err := c.validate(b); err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
	for doc, want := range map[string]string{
		`{"id":"","status":{"kind":"running"},"nested":{}}`:                  `field "id": must be at least 1 characters long`,
		`{"id":"x","status":{"kind":"napping"},"nested":{}}`:                 `field "status.kind": must be one of "running", "exited"`,
		`{"id":"x","status":{"kind":"running"},"nested":{"port":0}}`:         `field "nested.port": must be at least 1, got 0`,
		`{"id":"x","status":{"kind":"running"},"nested":{},"keys":["a",""]}`: `field "keys[1]": must be at least 1 characters long`,
		`{"id":"x","status":{"kind":"running"},"nested":{},"kind":"c"}`:      `field "kind": must be one of "a", "b"`,
	} {
		if err := c.validate([]byte(doc)); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", doc, err, want)
		}
	}
}

func TestInferSchemaRefusesUnknownProperties(t *testing.T) {
	for _, opt := range []SchemaOption{NonEmpty("nope"), Range("nested.nope", 0, 1), Items("id[]", 0, 1), Default("id", func() {})} {
		if _, err := InferSchema[inferArgs](opt); err == nil {
			t.Errorf("an option on a property inferArgs lacks: no error")
		}
	}
	defer func() {
		if recover() == nil {
			t.Fatal("MustInferSchema did not panic")
		}
	}()
	MustInferSchema[inferArgs](NonEmpty("nope"))
}

func TestInferSchemaOfNoArguments(t *testing.T) {
	if got := string(MustInferSchema[struct{}]()); got != `{"type":"object","properties":{},"additionalProperties":false}` {
		t.Fatalf("got %s", got)
	}
}
