package tools

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzValidate parses arbitrary schemas and validates arbitrary documents
// against them: nothing panics, a failure on well-formed JSON is a
// *ValidationError, and a document that validates still validates after a
// round trip through encoding/json (key order and spacing do not matter).
func FuzzValidate(f *testing.F) {
	f.Add(argsSchema, `{"id":"x","lines":3}`)
	f.Add(`{"type":"object","properties":{"a":{"type":"integer","minimum":0}}}`, `{"a":-1}`)
	f.Add(`{"oneOf":[{"type":"string"},{"enum":["a"]}]}`, `"a"`)
	f.Add(`true`, `[1,2,{"a":null}]`)
	f.Fuzz(func(t *testing.T, schema, doc string) {
		s, err := ParseSchema([]byte(schema))
		if err != nil {
			return
		}
		err = s.Validate([]byte(doc))
		var v any
		wellFormed := json.Unmarshal([]byte(doc), &v) == nil
		var ve *ValidationError
		if err != nil && wellFormed && !errors.As(err, &ve) {
			// encoding/json accepts a value that decodeJSON refused.
			t.Fatalf("well-formed %q: %v is not a *ValidationError", doc, err)
		}
		if err == nil {
			b, merr := json.Marshal(v)
			if merr != nil {
				t.Fatalf("accepted %q that does not re-marshal: %v", doc, merr)
			}
			if err := s.Validate(b); err != nil && isIntegerPreserving(doc) {
				t.Fatalf("accepted %q but not its round trip %s: %v", doc, b, err)
			}
		}
	})
}

// isIntegerPreserving reports whether a round trip through float64 keeps
// every number exact: no fraction, no exponent, no run of more than 15
// digits.
func isIntegerPreserving(doc string) bool {
	run := 0
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		switch {
		case c == 'e' || c == 'E' || c == '.':
			return false
		case c >= '0' && c <= '9':
			run++
			if run > 15 {
				return false
			}
		default:
			run = 0
		}
	}
	return true
}
