package jobtools

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"

	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// conform checks a decoded JSON value against the subset of JSON Schema
// the tools use (type, properties, required, additionalProperties,
// items, enum, minimum, maximum, minLength, maxItems). It is a test
// helper: the tools' results must validate against their own schemas.
func conform(schema map[string]any, v any, path string) error {
	if enum, ok := schema["enum"].([]any); ok && !slices.Contains(enum, v) {
		return fmt.Errorf("%s: %v not in %v", path, v, enum)
	}
	if types, ok := schema["type"].([]any); ok { // ["integer", "null"]
		if v == nil && slices.Contains(types, any("null")) {
			return nil
		}
		for _, t := range types {
			if t == "null" {
				continue
			}
			one := maps.Clone(schema)
			one["type"] = t
			if conform(one, v, path) == nil {
				return nil
			}
		}
		return fmt.Errorf("%s: %v is none of %v", path, v, types)
	}
	switch t := schema["type"]; t {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want object, got %T", path, v)
		}
		props, _ := schema["properties"].(map[string]any)
		for _, r := range asList(schema["required"]) {
			if _, ok := m[r.(string)]; !ok {
				return fmt.Errorf("%s: missing required %q", path, r)
			}
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ps, declared := props[k].(map[string]any)
			if !declared {
				if extra, ok := schema["additionalProperties"].(map[string]any); ok {
					if err := conform(extra, m[k], path+"."+k); err != nil {
						return err
					}
					continue
				}
				if schema["additionalProperties"] == false {
					return fmt.Errorf("%s: undeclared property %q", path, k)
				}
				continue
			}
			if err := conform(ps, m[k], path+"."+k); err != nil {
				return err
			}
		}
	case "array":
		l, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: want array, got %T", path, v)
		}
		if mx, ok := schema["maxItems"].(float64); ok && float64(len(l)) > mx {
			return fmt.Errorf("%s: %d items > %v", path, len(l), mx)
		}
		if items, ok := schema["items"].(map[string]any); ok {
			for i, x := range l {
				if err := conform(items, x, fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
		}
	case "string":
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s: want string, got %T", path, v)
		}
		if ml, ok := schema["minLength"].(float64); ok && float64(len(s)) < ml {
			return fmt.Errorf("%s: shorter than %v", path, ml)
		}
	case "integer":
		n, ok := v.(float64)
		if !ok || n != math.Trunc(n) {
			return fmt.Errorf("%s: want integer, got %v", path, v)
		}
		if mn, ok := schema["minimum"].(float64); ok && n < mn {
			return fmt.Errorf("%s: %v < minimum %v", path, n, mn)
		}
		if mx, ok := schema["maximum"].(float64); ok && n > mx {
			return fmt.Errorf("%s: %v > maximum %v", path, n, mx)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s: want boolean, got %T", path, v)
		}
	default:
		return fmt.Errorf("%s: schema type %v not handled", path, t)
	}
	return nil
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// checkOutput validates a result's structured value against the tool's
// output schema.
func checkOutput(def tools.Definition, res tools.Result) error {
	var schema map[string]any
	if err := json.Unmarshal(def.OutputSchema, &schema); err != nil {
		return err
	}
	b, err := json.Marshal(res.Structured)
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return conform(schema, v, def.Name)
}
