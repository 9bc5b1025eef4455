package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// A SchemaOption adjusts a schema [InferSchema] derives from a Go type:
// the schema of a named type the Go type alone does not give (a string
// type with a fixed set of values, a type with its own MarshalJSON), or a
// bound on one property that a Go type cannot express.
type SchemaOption func(*inference)

type inference struct {
	types map[reflect.Type]*jsonschema.Schema
	wires []func(map[reflect.Type]*jsonschema.Schema) error
	rules []rule
}

// A rule changes the subschema at path.
type rule struct {
	path  string
	apply func(*jsonschema.Schema)
	err   error // the option itself is wrong
}

// InferSchema returns the JSON Schema of T's JSON encoding, derived from
// the Go type by github.com/google/jsonschema-go: a struct is an object
// that accepts only its fields, a field tagged omitempty (or omitzero) is
// optional and every other field required, a pointer or slice also
// accepts null, and a field's `jsonschema:"..."` tag is its description.
// The core types (core.Status as it marshals, core.WaitReason,
// core.Signal) have their schemas built in; opts add others and the
// bounds. An option naming a property T does not have is an error, so a
// schema cannot drift from its type unnoticed.
func InferSchema[T any](opts ...SchemaOption) (json.RawMessage, error) {
	inf := inference{types: map[reflect.Type]*jsonschema.Schema{}}
	for _, o := range append(coreSchemas(), opts...) {
		o(&inf)
	}
	for _, w := range inf.wires {
		if err := w(inf.types); err != nil {
			return nil, fmt.Errorf("tools: %w", err)
		}
	}
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: inf.types})
	if err != nil {
		return nil, fmt.Errorf("tools: %w", err)
	}
	if s.Type == "object" && s.Properties == nil {
		s.Properties = map[string]*jsonschema.Schema{} // a tool without arguments still lists none
	}
	for _, r := range inf.rules {
		sub, err := subschema(s, r.path)
		if err == nil {
			err = r.err
		}
		if err != nil {
			return nil, fmt.Errorf("tools: schema of %s: %w", reflect.TypeFor[T](), err)
		}
		r.apply(sub)
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("tools: schema of %s does not marshal: %w", reflect.TypeFor[T](), err)
	}
	return b, nil
}

// MustInferSchema is [InferSchema] for the static schemas of tools: it
// panics on an error (an option naming a property T does not have), so
// that a broken schema stops every test of the package that builds it.
func MustInferSchema[T any](opts ...SchemaOption) json.RawMessage {
	b, err := InferSchema[T](opts...)
	if err != nil {
		panic(err)
	}
	return b
}

// subschema follows a path of property names separated by dots; a name
// ending in "[]" steps into the array's items ("conditions[].port").
func subschema(s *jsonschema.Schema, path string) (*jsonschema.Schema, error) {
	for _, seg := range strings.Split(path, ".") {
		name, items := strings.CutSuffix(seg, "[]")
		if name != "" {
			p, ok := s.Properties[name]
			if !ok {
				return nil, fmt.Errorf("no property %q (in %q)", name, path)
			}
			s = p
		}
		if items {
			if s.Items == nil {
				return nil, fmt.Errorf("%q is not an array (in %q)", name, path)
			}
			s = s.Items
		}
	}
	return s, nil
}

// EnumOf gives the string type T the schema of a string that is one of
// values, wherever T appears.
func EnumOf[T ~string](values ...T) SchemaOption {
	enum := make([]any, len(values))
	for i, v := range values {
		enum[i] = string(v)
	}
	return func(inf *inference) {
		inf.types[reflect.TypeFor[T]()] = &jsonschema.Schema{Type: "string", Enum: enum}
	}
}

// MarshalsAs gives T, a type with its own MarshalJSON, the schema of W,
// the type whose encoding T's MarshalJSON produces.
func MarshalsAs[T, W any]() SchemaOption {
	return func(inf *inference) {
		inf.wires = append(inf.wires, func(types map[reflect.Type]*jsonschema.Schema) error {
			s, err := jsonschema.For[W](&jsonschema.ForOptions{TypeSchemas: types})
			if err != nil {
				return err
			}
			types[reflect.TypeFor[T]()] = s
			return nil
		})
	}
}

func at(path string, apply func(*jsonschema.Schema)) SchemaOption {
	return func(inf *inference) { inf.rules = append(inf.rules, rule{path: path, apply: apply}) }
}

// Range bounds the integer property at path to min..max, inclusive.
func Range(path string, min, max int64) SchemaOption {
	return at(path, func(s *jsonschema.Schema) {
		s.Minimum, s.Maximum = jsonschema.Ptr(float64(min)), jsonschema.Ptr(float64(max))
	})
}

// AtLeast bounds the integer property at path from below, inclusive.
func AtLeast(path string, min int64) SchemaOption {
	return at(path, func(s *jsonschema.Schema) { s.Minimum = jsonschema.Ptr(float64(min)) })
}

// Length bounds the length, in characters, of the string property at
// path; 0 leaves that side open.
func Length(path string, min, max int) SchemaOption {
	return at(path, func(s *jsonschema.Schema) {
		if min > 0 {
			s.MinLength = jsonschema.Ptr(min)
		}
		if max > 0 {
			s.MaxLength = jsonschema.Ptr(max)
		}
	})
}

// NonEmpty requires the string property at path to be non-empty.
func NonEmpty(path string) SchemaOption { return Length(path, 1, 0) }

// Items bounds the number of items of the array property at path; 0
// leaves that side open.
func Items(path string, min, max int) SchemaOption {
	return at(path, func(s *jsonschema.Schema) {
		if min > 0 {
			s.MinItems = jsonschema.Ptr(min)
		}
		if max > 0 {
			s.MaxItems = jsonschema.Ptr(max)
		}
	})
}

// Describe sets the description of the property at path, for one that a
// struct tag cannot give (it names a configured value, or the same field
// means different things to two tools).
func Describe(path, desc string) SchemaOption {
	return at(path, func(s *jsonschema.Schema) { s.Description = desc })
}

// Default documents the value the property at path takes when omitted.
func Default(path string, v any) SchemaOption {
	b, err := json.Marshal(v)
	return func(inf *inference) {
		inf.rules = append(inf.rules, rule{path: path, apply: func(s *jsonschema.Schema) { s.Default = b }, err: err})
	}
}

// Enum restricts the string property at path to values.
func Enum[T ~string](path string, values ...T) SchemaOption {
	enum := make([]any, len(values))
	for i, v := range values {
		enum[i] = string(v)
	}
	return at(path, func(s *jsonschema.Schema) { s.Enum = enum })
}
