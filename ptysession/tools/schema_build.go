package tools

import (
	"encoding/json"
	"fmt"
)

// Obj is a JSON Schema, or a part of one, under construction: a JSON object
// as a Go map. The helpers below build the common shapes; a literal Obj
// spells any other (an enum, a pattern, a nested array). Marshal the
// finished schema with [SchemaJSON] or [MustSchemaJSON].
type Obj map[string]any

// Object returns the schema of a JSON object with the given properties and
// no others (additionalProperties false). required lists the properties
// that must be present; nil or empty leaves "required" out.
func Object(required []string, props Obj) Obj {
	o := Obj{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

// String returns the schema of a string described by desc.
func String(desc string) Obj { return Obj{"type": "string", "description": desc} }

// Boolean returns the schema of a boolean described by desc.
func Boolean(desc string) Obj { return Obj{"type": "boolean", "description": desc} }

// Integer returns the schema of an integer described by desc, without
// bounds; add them with [Obj.Min] and [Obj.Max].
func Integer(desc string) Obj { return Obj{"type": "integer", "description": desc} }

// StringList returns the schema of an array of strings described by desc.
func StringList(desc string) Obj {
	return Obj{"type": "array", "items": Obj{"type": "string"}, "description": desc}
}

// Min sets the schema's inclusive "minimum" and returns o.
func (o Obj) Min(n int64) Obj {
	o["minimum"] = n
	return o
}

// Max sets the schema's inclusive "maximum" and returns o.
func (o Obj) Max(n int64) Obj {
	o["maximum"] = n
	return o
}

// SchemaJSON marshals a schema for [Definition.InputSchema] or
// [Definition.OutputSchema]. It fails only if o holds a value JSON cannot
// encode (a func, a channel, a NaN).
func SchemaJSON(o Obj) (json.RawMessage, error) {
	b, err := json.Marshal(o)
	if err != nil {
		return nil, fmt.Errorf("tools: schema does not marshal: %w", err)
	}
	return b, nil
}

// MustSchemaJSON is [SchemaJSON] for static schemas: it panics if o does
// not marshal. Call it only when initializing package-level variables, as
// with regexp.MustCompile, so that a broken schema stops every test of the
// package instead of reaching a caller.
func MustSchemaJSON(o Obj) json.RawMessage {
	b, err := SchemaJSON(o)
	if err != nil {
		panic(err)
	}
	return b
}
