package tools

import (
	"encoding/json"
	"testing"
)

// FuzzExplain validates arbitrary documents against arbitrary schemas:
// nothing panics, the dispatcher's verdict is the library's, a refused
// well-formed document gets a *ValidationError, and explain never blames
// a document the library accepts.
func FuzzExplain(f *testing.F) {
	f.Add(argsSchema, `{"id":"x","lines":3}`)
	f.Add(`{"type":"object","properties":{"a":{"type":"integer","minimum":0}}}`, `{"a":-1}`)
	f.Add(`{"oneOf":[{"type":"string"},{"enum":["a"]}]}`, `"a"`)
	f.Add(`true`, `[1,2,{"a":null}]`)
	f.Fuzz(func(t *testing.T, schema, doc string) {
		c, err := compile([]byte(schema))
		if err != nil {
			return
		}
		var v any
		if json.Unmarshal([]byte(doc), &v) != nil {
			return
		}
		libraryAccepts := c.resolved.Validate(v) == nil
		err = c.validate([]byte(doc))
		if libraryAccepts != (err == nil) {
			t.Fatalf("%s on %q: the library accepts: %v, the dispatcher says %v", schema, doc, libraryAccepts, err)
		}
		if libraryAccepts {
			if e := explain(c.schema, v, ""); e != nil {
				t.Fatalf("%s accepts %q, explain blames %v", schema, doc, e)
			}
		} else if _, ok := err.(*ValidationError); !ok {
			t.Fatalf("%s refuses %q with %v, not a *ValidationError", schema, doc, err)
		}
	})
}
