package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Schema is a parsed JSON Schema of the subset tools use. Build it with
// [ParseSchema]; the zero value accepts everything.
type Schema struct {
	types         []string // empty: any type
	properties    map[string]*Schema
	propNames     []string // sorted, for messages
	required      []string
	additional    *Schema // nil: any additional property
	noAdditional  bool    // additionalProperties: false
	items         *Schema
	enum          []any
	constVal      *any
	minimum       *float64
	maximum       *float64
	minLength     *int
	maxLength     *int
	minItems      *int
	maxItems      *int
	minProperties *int
	maxProperties *int
	pattern       *regexp.Regexp
	anyOf, oneOf  []*Schema
}

// annotations are keywords that carry no constraint.
var annotations = map[string]bool{
	"$schema": true, "$id": true, "$comment": true, "title": true, "description": true,
	"default": true, "examples": true, "deprecated": true, "readOnly": true, "writeOnly": true,
	"format": true,
}

var jsonTypes = map[string]bool{
	"object": true, "array": true, "string": true, "integer": true,
	"number": true, "boolean": true, "null": true,
}

// ParseSchema parses a JSON Schema document of the subset the dispatcher
// understands (draft 2020-12 keywords): type (a name or a list), properties,
// required, additionalProperties (a boolean or a schema), items (a schema),
// enum, const, minimum, maximum, minLength, maxLength, minItems, maxItems,
// minProperties, maxProperties, pattern (Go regexp syntax), anyOf, oneOf,
// and the annotations $schema, $id, $comment, title, description, default,
// examples, deprecated, readOnly, writeOnly and format. Any other keyword is
// an error, so that no constraint is silently ignored. The boolean schemas
// true and false are accepted.
func ParseSchema(doc []byte) (*Schema, error) {
	v, err := decodeJSON(doc)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return parseSchemaValue(v, "#")
}

func parseSchemaValue(v any, at string) (*Schema, error) {
	if b, ok := v.(bool); ok {
		if b {
			return &Schema{}, nil
		}
		return &Schema{noAdditional: true, types: []string{}, enum: []any{}}, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("schema %s: a schema must be an object or a boolean", at)
	}
	s := &Schema{}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		val := m[k]
		var err error
		switch {
		case annotations[k]:
		case k == "type":
			err = s.parseType(val)
		case k == "properties":
			err = s.parseProperties(val, at)
		case k == "required":
			s.required, err = stringList(val)
		case k == "additionalProperties":
			if b, ok := val.(bool); ok {
				s.noAdditional = !b
			} else {
				s.additional, err = parseSchemaValue(val, at+"/additionalProperties")
			}
		case k == "items":
			s.items, err = parseSchemaValue(val, at+"/items")
		case k == "enum":
			l, ok := val.([]any)
			if !ok {
				err = errors.New("must be an array")
			}
			s.enum = l
		case k == "const":
			c := val
			s.constVal = &c
		case k == "minimum":
			s.minimum, err = number(val)
		case k == "maximum":
			s.maximum, err = number(val)
		case k == "minLength":
			s.minLength, err = count(val)
		case k == "maxLength":
			s.maxLength, err = count(val)
		case k == "minItems":
			s.minItems, err = count(val)
		case k == "maxItems":
			s.maxItems, err = count(val)
		case k == "minProperties":
			s.minProperties, err = count(val)
		case k == "maxProperties":
			s.maxProperties, err = count(val)
		case k == "pattern":
			p, ok := val.(string)
			if !ok {
				err = errors.New("must be a string")
				break
			}
			s.pattern, err = regexp.Compile(p)
		case k == "anyOf" || k == "oneOf":
			var subs []*Schema
			subs, err = schemaList(val, at+"/"+k)
			if k == "anyOf" {
				s.anyOf = subs
			} else {
				s.oneOf = subs
			}
		default:
			err = errors.New("unsupported keyword")
		}
		if err != nil {
			return nil, fmt.Errorf("schema %s: %q: %w", at, k, err)
		}
	}
	return s, nil
}

func (s *Schema) parseType(v any) error {
	switch t := v.(type) {
	case string:
		s.types = []string{t}
	case []any:
		l, err := stringList(t)
		if err != nil {
			return err
		}
		if len(l) == 0 {
			return errors.New("an empty list of types")
		}
		s.types = l
	default:
		return errors.New("must be a type name or a list of them")
	}
	for _, t := range s.types {
		if !jsonTypes[t] {
			return fmt.Errorf("unknown type %q", t)
		}
	}
	return nil
}

func (s *Schema) parseProperties(v any, at string) error {
	m, ok := v.(map[string]any)
	if !ok {
		return errors.New("must be an object")
	}
	s.properties = make(map[string]*Schema, len(m))
	for name, sub := range m {
		ps, err := parseSchemaValue(sub, at+"/properties/"+name)
		if err != nil {
			return err
		}
		s.properties[name] = ps
		s.propNames = append(s.propNames, name)
	}
	sort.Strings(s.propNames)
	return nil
}

func stringList(v any) ([]string, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, errors.New("must be an array of strings")
	}
	out := make([]string, 0, len(l))
	for _, x := range l {
		str, ok := x.(string)
		if !ok {
			return nil, errors.New("must be an array of strings")
		}
		out = append(out, str)
	}
	return out, nil
}

func schemaList(v any, at string) ([]*Schema, error) {
	l, ok := v.([]any)
	if !ok || len(l) == 0 {
		return nil, errors.New("must be a non-empty array of schemas")
	}
	out := make([]*Schema, 0, len(l))
	for i, x := range l {
		s, err := parseSchemaValue(x, at+"/"+strconv.Itoa(i))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func number(v any) (*float64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, errors.New("must be a number")
	}
	f, err := n.Float64()
	if err != nil {
		return nil, err
	}
	return &f, nil
}

func count(v any) (*int, error) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, errors.New("must be a non-negative integer")
	}
	i, err := strconv.Atoi(n.String())
	if err != nil || i < 0 {
		return nil, errors.New("must be a non-negative integer")
	}
	return &i, nil
}

// decodeJSON decodes exactly one JSON value, keeping numbers exact.
func decodeJSON(doc []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if err == io.EOF {
			return nil, errors.New("empty document")
		}
		return nil, fmt.Errorf("malformed JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("malformed JSON: data after the value")
	}
	return v, nil
}

// ValidationError says which field of a value broke its schema. Field is a
// dotted path ("env.HOME", "items[2]"); "" means the value as a whole.
type ValidationError struct {
	// Field is the offending field's path.
	Field string
	// Msg says what is wrong with it.
	Msg string
}

// Error implements error.
func (e *ValidationError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return fmt.Sprintf("field %q: %s", e.Field, e.Msg)
}

// Validate checks one JSON document against the schema. It returns a
// *ValidationError naming the first offending field, or an error for
// malformed JSON.
func (s *Schema) Validate(doc []byte) error {
	v, err := decodeJSON(doc)
	if err != nil {
		return err
	}
	return s.validate(v, "")
}

func typeOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if isInteger(x) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

// isInteger reports an integer literal that fits int64 (written without a
// fraction or exponent).
func isInteger(n json.Number) bool {
	_, err := strconv.ParseInt(n.String(), 10, 64)
	return err == nil
}

func (s *Schema) typeOK(v any) bool {
	if s.types == nil {
		return true
	}
	t := typeOf(v)
	for _, want := range s.types {
		if want == t || (want == "number" && t == "integer") {
			return true
		}
	}
	return false
}

func joinField(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (s *Schema) fail(path, format string, args ...any) error {
	return &ValidationError{Field: path, Msg: fmt.Sprintf(format, args...)}
}

func (s *Schema) validate(v any, path string) error {
	if !s.typeOK(v) {
		if len(s.types) == 0 {
			return s.fail(path, "no value is allowed here")
		}
		return s.fail(path, "want %s, got %s", strings.Join(s.types, " or "), typeOf(v))
	}
	if s.enum != nil && !containsJSON(s.enum, v) {
		return s.fail(path, "must be one of %s", renderList(s.enum))
	}
	if s.constVal != nil && !equalJSON(*s.constVal, v) {
		return s.fail(path, "must be %s", render(*s.constVal))
	}
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		if s.minimum != nil && f < *s.minimum {
			return s.fail(path, "must be at least %s, got %s", fmtNum(*s.minimum), x)
		}
		if s.maximum != nil && f > *s.maximum {
			return s.fail(path, "must be at most %s, got %s", fmtNum(*s.maximum), x)
		}
	case string:
		n := utf8.RuneCountInString(x)
		if s.minLength != nil && n < *s.minLength {
			return s.fail(path, "must be at least %d characters long", *s.minLength)
		}
		if s.maxLength != nil && n > *s.maxLength {
			return s.fail(path, "must be at most %d characters long, got %d", *s.maxLength, n)
		}
		if s.pattern != nil && !s.pattern.MatchString(x) {
			return s.fail(path, "must match the pattern %s", s.pattern)
		}
	case []any:
		if s.minItems != nil && len(x) < *s.minItems {
			return s.fail(path, "must have at least %d items", *s.minItems)
		}
		if s.maxItems != nil && len(x) > *s.maxItems {
			return s.fail(path, "must have at most %d items", *s.maxItems)
		}
		if s.items != nil {
			for i, item := range x {
				if err := s.items.validate(item, path+"["+strconv.Itoa(i)+"]"); err != nil {
					return err
				}
			}
		}
	case map[string]any:
		if err := s.validateObject(x, path); err != nil {
			return err
		}
	}
	return s.validateCombinators(v, path)
}

func (s *Schema) validateObject(x map[string]any, path string) error {
	for _, r := range s.required {
		if _, ok := x[r]; !ok {
			return &ValidationError{Field: joinField(path, r), Msg: "missing required field"}
		}
	}
	if s.minProperties != nil && len(x) < *s.minProperties {
		return s.fail(path, "must have at least %d fields", *s.minProperties)
	}
	if s.maxProperties != nil && len(x) > *s.maxProperties {
		return s.fail(path, "must have at most %d fields", *s.maxProperties)
	}
	names := make([]string, 0, len(x))
	for k := range x {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		f := joinField(path, k)
		if ps, ok := s.properties[k]; ok {
			if err := ps.validate(x[k], f); err != nil {
				return err
			}
			continue
		}
		if s.noAdditional {
			if len(s.propNames) == 0 {
				return &ValidationError{Field: f, Msg: "unknown field (no fields are accepted here)"}
			}
			return &ValidationError{Field: f, Msg: "unknown field (accepted: " + strings.Join(s.propNames, ", ") + ")"}
		}
		if s.additional != nil {
			if err := s.additional.validate(x[k], f); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Schema) validateCombinators(v any, path string) error {
	if len(s.anyOf) > 0 {
		var first error
		ok := false
		for _, sub := range s.anyOf {
			if err := sub.validate(v, path); err == nil {
				ok = true
				break
			} else if first == nil {
				first = err
			}
		}
		if !ok {
			return first
		}
	}
	if len(s.oneOf) > 0 {
		matched := 0
		var first error
		for _, sub := range s.oneOf {
			if err := sub.validate(v, path); err == nil {
				matched++
			} else if first == nil {
				first = err
			}
		}
		switch {
		case matched == 0:
			return first
		case matched > 1:
			return s.fail(path, "matches %d alternatives, want exactly one", matched)
		}
	}
	return nil
}

func containsJSON(list []any, v any) bool {
	for _, x := range list {
		if equalJSON(x, v) {
			return true
		}
	}
	return false
}

// equalJSON compares decoded JSON values (numbers by value).
func equalJSON(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		fx, e1 := x.Float64()
		fy, e2 := y.Float64()
		return e1 == nil && e2 == nil && fx == fy
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equalJSON(xv, yv) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
}

func render(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func renderList(l []any) string {
	parts := make([]string, len(l))
	for i, x := range l {
		parts[i] = render(x)
	}
	return strings.Join(parts, ", ")
}

func fmtNum(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
