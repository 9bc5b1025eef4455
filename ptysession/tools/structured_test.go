package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

type screenLike struct {
	Rows    []string `json:"rows"`
	Title   string   `json:"title"`
	Changed []int    `json:"changed"`
	Size    struct {
		Rows int `json:"rows"`
		Cols int `json:"cols"`
	} `json:"size"`
}

func TestBoundStructuredKeepsShape(t *testing.T) {
	// The shape that reached 836 KB: a 500x1000 screen and a 300 KB title.
	v := screenLike{Title: strings.Repeat("T", 300_000)}
	for i := range 500 {
		v.Rows = append(v.Rows, strings.Repeat("\x01", 1000)) // escapes make it 6 bytes a cell
		v.Changed = append(v.Changed, i)
	}
	v.Size.Rows, v.Size.Cols = 500, 1000
	for _, limit := range []int{1 << 10, 32 << 10, 64 << 10} {
		b, cut, err := BoundStructured(v, limit)
		if err != nil || !cut {
			t.Fatalf("limit %d: cut %v, err %v", limit, cut, err)
		}
		if len(b) > limit {
			t.Fatalf("limit %d: %d bytes", limit, len(b))
		}
		var back screenLike
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("limit %d: the cut result does not decode: %v", limit, err)
		}
		if back.Size != v.Size {
			t.Fatalf("limit %d: numbers changed: %+v", limit, back.Size)
		}
		if limit >= 32<<10 && (len(back.Rows) != 500 || len(back.Changed) != 500) {
			t.Fatalf("limit %d: arrays were cut although cutting strings was enough: %d rows", limit, len(back.Rows))
		}
	}
	small := screenLike{Title: "t", Rows: []string{"a"}}
	b, cut, err := BoundStructured(small, 1<<10)
	if err != nil || cut || !strings.Contains(string(b), `"title":"t"`) {
		t.Fatalf("a small result was changed: %s %v %v", b, cut, err)
	}
	if _, _, err := BoundStructured(map[string]int{"a": 1, "b": 2}, 4); err == nil {
		t.Fatalf("an unboundable result was accepted")
	}
}

func FuzzBoundStructured(f *testing.F) {
	f.Add([]byte(`{"rows":["aaaaaaaa","bbbbbbbbbbbb"],"title":"xxxxxxxxxxxxxxxxxxxxxxxxxx","n":[1,2,3,4,5,6,7,8,9]}`), 40)
	f.Add([]byte(`[[["deep"]],{"k":"\u00e9\u00e9\u00e9\u00e9\u00e9"}]`), 12)
	f.Fuzz(func(t *testing.T, doc []byte, limit int) {
		var v any
		if json.Unmarshal(doc, &v) != nil || limit <= 0 || limit > 1<<16 {
			return
		}
		b, _, err := BoundStructured(v, limit)
		if err != nil {
			return
		}
		if len(b) > limit {
			t.Fatalf("%d bytes for limit %d", len(b), limit)
		}
		var back any
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("invalid JSON %q: %v", b, err)
		}
		if kind(back) != kind(v) {
			t.Fatalf("the top-level kind changed: %T -> %T", v, back)
		}
	})
}

func kind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	}
	return "other"
}
