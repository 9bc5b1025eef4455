package tools

import (
	"encoding/json"
)

// CompactSchema returns doc without the annotation keywords a model never
// reads in an output schema ("description", "title", "default",
// "examples"), keeping every keyword that constrains a value, so that a
// client validates structured results exactly as before. Property names
// are kept whatever they are called (a property named "title" stays).
// A document that does not parse is returned as is.
func CompactSchema(doc json.RawMessage) json.RawMessage {
	if len(doc) == 0 {
		return doc
	}
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return doc
	}
	out, err := json.Marshal(compactSchema(v))
	if err != nil {
		return doc
	}
	return out
}

// schemaMaps are keywords whose value maps names to subschemas.
var schemaMaps = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true}

// schemaLists are keywords whose value is a list of subschemas.
var schemaLists = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}

// schemaOne are keywords whose value is one subschema.
var schemaOne = map[string]bool{"items": true, "additionalProperties": true, "not": true, "if": true, "then": true, "else": true, "contains": true, "propertyNames": true, "unevaluatedItems": true, "unevaluatedProperties": true}

func compactSchema(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v // true, false, or not a schema
	}
	out := make(map[string]any, len(m))
	for k, val := range m {
		switch {
		case k == "description" || k == "title" || k == "default" || k == "examples":
		case schemaMaps[k]:
			if sub, ok := val.(map[string]any); ok {
				c := make(map[string]any, len(sub))
				for name, s := range sub {
					c[name] = compactSchema(s)
				}
				out[k] = c
			} else {
				out[k] = val
			}
		case schemaLists[k]:
			if l, ok := val.([]any); ok {
				c := make([]any, len(l))
				for i, s := range l {
					c[i] = compactSchema(s)
				}
				out[k] = c
			} else {
				out[k] = val
			}
		case schemaOne[k]:
			out[k] = compactSchema(val)
		default:
			out[k] = val
		}
	}
	return out
}
