package tools

import "testing"

// FuzzCompactSchema compacts arbitrary schemas: nothing panics, a schema
// that parses still parses once compacted, compaction is idempotent, and a
// document the schema accepts is accepted by the compacted schema too
// (annotations never constrain).
func FuzzCompactSchema(f *testing.F) {
	f.Add(argsSchema, `{"id":"x","lines":3}`)
	f.Add(`{"type":"object","description":"d","properties":{"title":{"type":"string","title":"t"}},"required":["title"]}`, `{"title":"x"}`)
	f.Add(`{"anyOf":[{"type":"string","default":"a"},{"type":"null"}],"examples":[1]}`, `null`)
	f.Add(`{"items":{"description":"x","minimum":2}}`, `[3]`)
	f.Fuzz(func(t *testing.T, schema, doc string) {
		s, err := compile([]byte(schema))
		if err != nil {
			return
		}
		c := CompactSchema([]byte(schema))
		cs, err := compile(c)
		if err != nil {
			t.Fatalf("compacted %s of %s does not parse: %v", c, schema, err)
		}
		if again := CompactSchema(c); string(again) != string(c) {
			t.Fatalf("not idempotent: %s then %s", c, again)
		}
		if s.validate([]byte(doc)) == nil {
			if err := cs.validate([]byte(doc)); err != nil {
				t.Fatalf("%s accepts %q, its compaction %s refuses it: %v", schema, doc, c, err)
			}
		}
	})
}
