package tools

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestHeadline(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"[prompt; session exited 0]\nls\nfile\n", "[prompt; session exited 0]"},
		{"session pty_x closed", "session pty_x closed"},
		{"", ""},
		{strings.Repeat("é", 200), strings.Repeat("é", (MaxHeadlineBytes-3)/2) + "..."},
	} {
		if got := Headline(tc.in); got != tc.want {
			t.Errorf("Headline(%.20q) = %q, want %q", tc.in, got, tc.want)
		}
		if len(Headline(tc.in)) > MaxHeadlineBytes {
			t.Errorf("Headline(%.20q) is %d bytes", tc.in, len(Headline(tc.in)))
		}
	}
}

func TestCompactSchemaKeepsConstraintsAndPropertyNames(t *testing.T) {
	doc := json.RawMessage(`{"type":"object","additionalProperties":false,"required":["title","n"],"properties":{
		"title":{"type":"string","description":"A property called title."},
		"n":{"type":"integer","minimum":0,"description":"Count."},
		"list":{"type":"array","items":{"type":"string","description":"x"},"description":"y"},
		"any":{"anyOf":[{"type":"string","description":"z"},{"type":"null"}]}}}`)
	got := CompactSchema(doc)
	if strings.Contains(string(got), "description") {
		t.Fatalf("descriptions left: %s", got)
	}
	var g map[string]any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"type":     "object",
		"required": []any{"title", "n"},
		"properties": map[string]any{
			"title": map[string]any{"type": "string"},
			"n":     map[string]any{"type": "integer", "minimum": float64(0)},
			"list":  map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"any":   map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "null"}}},
		},
	}
	// Compare the keywords want names (additionalProperties aside).
	for k := range g {
		if _, ok := want[k]; !ok {
			delete(g, k)
		}
	}
	if !reflect.DeepEqual(want, g) {
		t.Fatalf("compacted schema:\n got %v\nwant %v", g, want)
	}
	// A compacted schema validates the same documents.
	s, err := compile(got)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.validate([]byte(`{"title":"t","n":-1}`)); err == nil {
		t.Fatal("minimum lost")
	}
	if err := s.validate([]byte(`{"title":"t","n":1,"list":["a"]}`)); err != nil {
		t.Fatal(err)
	}
	if string(CompactSchema(json.RawMessage("not json"))) != "not json" {
		t.Fatal("a document that does not parse must come back as is")
	}
}
