package tools

import (
	"errors"
	"strings"
	"testing"
)

const argsSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "additionalProperties": false,
  "required": ["id"],
  "properties": {
    "id": {"type": "string", "minLength": 1},
    "lines": {"type": "integer", "minimum": 0, "maximum": 10000},
    "ratio": {"type": "number", "maximum": 1.5},
    "submit": {"type": "boolean", "default": true},
    "signal": {"type": "string", "enum": ["SIGINT", "SIGTERM"]},
    "env": {"type": "object", "additionalProperties": {"type": "string"}},
    "argv": {"type": "array", "items": {"type": "string", "maxLength": 3}, "maxItems": 2},
    "keys": {"type": ["null", "array"], "items": {"type": "string"}, "description": "Key names pressed in order: Enter, Escape, C-c."},
    "status": {"type": "object", "required": ["kind"], "additionalProperties": false,
               "properties": {"kind": {"const": "running"}, "signal": {"type": ["string", "null"]}}},
    "name": {"type": "string", "pattern": "^[a-z]+$"},
    "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    "any": {"anyOf": [{"type": "boolean"}, {"type": "null"}]}
  }
}`

func TestValidateAcceptsGoodValues(t *testing.T) {
	s, err := compile([]byte(argsSchema))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{
		`{"id":"x"}`,
		`{"id":"x","lines":0,"submit":false,"signal":"SIGINT"}`,
		`{"id":"x","lines":10000,"ratio":1.5,"env":{"A":"b","C":""}}`,
		`{"id":"x","argv":["a","abc"],"status":{"kind":"running","signal":null}}`,
		`{"id":"x","name":"abc","either":"s","any":null}`,
		`{"id":"x","either":3,"any":true}`,
		` {"id":"é"} `,
	} {
		if err := s.validate([]byte(doc)); err != nil {
			t.Errorf("Validate(%s) = %v, want nil", doc, err)
		}
	}
}

func TestValidateNamesTheField(t *testing.T) {
	s, err := compile([]byte(argsSchema))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		doc, field, msg string
	}{
		{`{}`, "id", "missing required field"},
		// A field given in the wrong place is named before the field it
		// stands for: pty_wait's pattern outside its conditions.
		{`{"bogus":1}`, "bogus", "unknown field (accepted: any, argv, either"},
		{`{"id":3}`, "id", "want string, got integer"},
		{`{"id":""}`, "id", "at least 1 characters"},
		{`{"id":"x","lines":"200"}`, "lines", "want integer, got string"},
		{`{"id":"x","lines":1.5}`, "lines", "want integer, got number"},
		{`{"id":"x","lines":-1}`, "lines", "at least 0"},
		{`{"id":"x","lines":10001}`, "lines", "at most 10000"},
		{`{"id":"x","ratio":2}`, "ratio", "at most 1.5"},
		{`{"id":"x","submit":"yes"}`, "submit", "want boolean, got string"},
		{`{"id":"x","signal":"SIGFOO"}`, "signal", `one of "SIGINT", "SIGTERM"`},
		{`{"id":"x","bogus":1}`, "bogus", "unknown field (accepted: any, argv, either"},
		{`{"id":"x","env":{"A":1}}`, "env.A", "want string, got integer"},
		{`{"id":"x","env":[]}`, "env", "want object, got array"},
		{`{"id":"x","argv":["a","b","c"]}`, "argv", "at most 2 items"},
		// A model wrote keys as one string of notation: the error says how
		// a list is written and what the field holds.
		{`{"id":"x","keys":"ihello<Esc>:wq<Enter>"}`, "keys", `want array or null, got string: write a list, as ["…", "…"] (keys: Key names pressed in order: Enter, Escape, C-c.)`},
		{`{"id":"x","argv":"ab"}`, "argv", `want array, got string: write a list, as ["…", "…"]`},
		{`{"id":"x","argv":["abcd"]}`, "argv[0]", "at most 3 characters"},
		{`{"id":"x","status":{}}`, "status.kind", "missing required field"},
		{`{"id":"x","status":{"kind":"exited"}}`, "status.kind", `must be "running"`},
		{`{"id":"x","status":{"kind":"running","x":1}}`, "status.x", "unknown field"},
		{`{"id":"x","name":"A"}`, "name", "must match the pattern"},
		{`{"id":"x","either":true}`, "either", "want string, got boolean"},
		{`{"id":"x","any":1}`, "any", "want boolean, got integer"},
		{`[]`, "", "want object, got array"},
		{`null`, "", "want object, got null"},
	}
	for _, c := range cases {
		err := s.validate([]byte(c.doc))
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("Validate(%s) = %v, want a *ValidationError", c.doc, err)
			continue
		}
		if ve.Field != c.field || !strings.Contains(ve.Msg, c.msg) {
			t.Errorf("Validate(%s) = field %q msg %q, want field %q msg containing %q", c.doc, ve.Field, ve.Msg, c.field, c.msg)
		}
	}
}

func TestValidateRejectsMalformedJSON(t *testing.T) {
	s, err := compile([]byte(argsSchema))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{``, `{`, `{"id":"x"} {}`, `{"id":"x",}`, `nul`} {
		err := s.validate([]byte(doc))
		var ve *ValidationError
		if err == nil || errors.As(err, &ve) {
			t.Errorf("Validate(%q) = %v, want a malformed-JSON error", doc, err)
		}
	}
}

func TestCompileRejects(t *testing.T) {
	for _, doc := range []string{
		`{"type":"object","properties":{"a":{"$ref":"#/x"}}}`, // references are refused
		`{"type":3}`,
		`{"required":"id"}`,
		`{"properties":[]}`,
		`{"minimum":"1"}`,
		`{"pattern":"("}`,
		`{"enum":{}}`,
		`[]`,
		`{"items":3}`,
		`not json`,
	} {
		if _, err := compile([]byte(doc)); err == nil {
			t.Errorf("compile(%s) = nil error, want one", doc)
		}
	}
}

func TestBooleanSchemas(t *testing.T) {
	s, err := compile([]byte(`{"type":"object","properties":{"a":true,"b":false}}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.validate([]byte(`{"a":[1,{"x":null}]}`)); err != nil {
		t.Errorf("true schema refused a value: %v", err)
	}
	err = s.validate([]byte(`{"b":1}`))
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Field != "b" {
		t.Errorf("false schema: got %v, want an error naming b", err)
	}
}
