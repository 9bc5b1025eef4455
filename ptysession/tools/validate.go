package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/ptyseam/ptyseam/internal/runecut"
)

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
	return aboutField(e.Field, e.Msg)
}

// aboutField is msg about the named field ("" for the value as a whole),
// as every refusal of an argument says it. A caller's field name may be
// any bytes of any length: at most its first 64 bytes are named.
func aboutField(field, msg string) string {
	if field == "" {
		return msg
	}
	return fmt.Sprintf("field %q: %s", runecut.Named(field, 64), msg)
}

// checker validates documents against one schema. github.com/google/jsonschema-go
// decides; when it refuses a value, [explain] names the field and the rule
// in the caller's terms.
type checker struct {
	schema   *jsonschema.Schema
	resolved *jsonschema.Resolved
}

// newChecker compiles a tool's schema, whose type must be "object".
func newChecker(doc json.RawMessage) (*checker, error) {
	if len(doc) == 0 {
		return nil, errors.New("missing")
	}
	v, err := decodeJSON(doc)
	if err != nil {
		return nil, err
	}
	if m, ok := v.(map[string]any); !ok || m["type"] != "object" {
		return nil, errors.New(`its "type" must be "object"`)
	}
	return compile(doc)
}

// compile parses and resolves a schema. References ($ref, $dynamicRef)
// are refused: a tool's schema is self-contained, so that every client
// reads it alike and every refusal can name its field.
func compile(doc json.RawMessage) (*checker, error) {
	v, err := decodeJSON(doc)
	if err != nil {
		return nil, err
	}
	if hasRef(v) {
		return nil, errors.New("references ($ref, $dynamicRef) are not supported: spell the schema out")
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(doc, &s); err != nil {
		return nil, err
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil, err
	}
	return &checker{schema: &s, resolved: rs}, nil
}

func hasRef(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, sub := range x {
			if k == "$ref" || k == "$dynamicRef" || hasRef(sub) {
				return true
			}
		}
	case []any:
		return slices.ContainsFunc(x, hasRef)
	}
	return false
}

// validate checks one JSON document. It returns a *ValidationError naming
// the first offending field, or an error for malformed JSON.
func (c *checker) validate(doc []byte) error {
	v, err := decodeJSON(doc)
	if err != nil {
		return err
	}
	if err := c.resolved.Validate(v); err != nil {
		if ve := explain(c.schema, v, ""); ve != nil {
			return ve
		}
		return &ValidationError{Msg: err.Error()}
	}
	return nil
}

// decodeJSON decodes exactly one JSON value.
func decodeJSON(doc []byte) (any, error) {
	var v any
	// json.Unmarshal takes what the decoder below takes (one value, white
	// space around it), without the decoder's copy of doc; the decoder
	// only says what is wrong with a document Unmarshal refuses.
	if json.Unmarshal(doc, &v) == nil {
		return v, nil
	}
	v = nil
	dec := json.NewDecoder(bytes.NewReader(doc))
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

// accepts asks the library whether s accepts v.
func accepts(s *jsonschema.Schema, v any) bool {
	rs, err := s.CloneSchemas().Resolve(nil)
	return err == nil && rs.Validate(v) == nil
}

// keywords are the checks of one value that explain names, in the order
// it tries them: the jsonschema.Schema fields that hold the keyword, and
// why v fails it.
var keywords = []struct {
	fields []string
	say    func(s *jsonschema.Schema, v any) string
}{
	{[]string{"Type", "Types"}, func(s *jsonschema.Schema, v any) string {
		want := []string{s.Type}
		if s.Type == "" { // a list: name null last ("want boolean or null")
			want = slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
			if len(want) < len(s.Types) {
				want = append(want, "null")
			}
		}
		return fmt.Sprintf("want %s, got %s", strings.Join(want, " or "), typeOf(v))
	}},
	{[]string{"Enum"}, func(s *jsonschema.Schema, _ any) string { return "must be one of " + renderList(s.Enum) }},
	{[]string{"Const"}, func(s *jsonschema.Schema, _ any) string { return "must be " + render(*s.Const) }},
	{[]string{"Minimum"}, func(s *jsonschema.Schema, v any) string {
		return fmt.Sprintf("must be at least %s, got %s", fmtNum(*s.Minimum), render(v))
	}},
	{[]string{"Maximum"}, func(s *jsonschema.Schema, v any) string {
		return fmt.Sprintf("must be at most %s, got %s", fmtNum(*s.Maximum), render(v))
	}},
	{[]string{"MinLength"}, func(s *jsonschema.Schema, _ any) string {
		return fmt.Sprintf("must be at least %d characters long", *s.MinLength)
	}},
	{[]string{"MaxLength"}, func(s *jsonschema.Schema, v any) string {
		return fmt.Sprintf("must be at most %d characters long, got %d", *s.MaxLength, len([]rune(v.(string))))
	}},
	{[]string{"Pattern"}, func(s *jsonschema.Schema, _ any) string { return "must match the pattern " + s.Pattern }},
	{[]string{"MinItems"}, func(s *jsonschema.Schema, _ any) string {
		return fmt.Sprintf("must have at least %d items", *s.MinItems)
	}},
	{[]string{"MaxItems"}, func(s *jsonschema.Schema, _ any) string {
		return fmt.Sprintf("must have at most %d items", *s.MaxItems)
	}},
}

// maxHintDescription bounds the field description a type error repeats.
const maxHintDescription = 400

// typeHint follows a type error: how a list is written when one was
// wanted and a string came (a model typed key notation as one string),
// and the field's own description, so that the caller learns what the
// field holds without fetching the tool list again.
func typeHint(s *jsonschema.Schema, v any, path string) string {
	var hint string
	wantsList := s.Type == "array" || slices.Contains(s.Types, "array")
	if _, isString := v.(string); isString && wantsList {
		hint = `: write a list, as ["…", "…"]`
	}
	if d := strings.TrimSpace(s.Description); d != "" {
		if len(d) > maxHintDescription {
			d = strings.ToValidUTF8(d[:maxHintDescription], "") + "…"
		}
		if name := path[strings.LastIndexAny(path, ".]")+1:]; name != "" {
			d = name + ": " + d
		}
		hint += " (" + d + ")"
	}
	return hint
}

// alone returns the schema of s's keyword held in fields, nothing else
// (nil when s lacks it).
func alone(s *jsonschema.Schema, fields []string) *jsonschema.Schema {
	out, has := &jsonschema.Schema{}, false
	for _, f := range fields {
		if v := reflect.ValueOf(s).Elem().FieldByName(f); !v.IsZero() {
			reflect.ValueOf(out).Elem().FieldByName(f).Set(v)
			has = true
		}
	}
	if !has {
		return nil
	}
	return out
}

// explain names the first field of v, at path, that s refuses and the
// rule it breaks, or returns nil when it finds none. It does not decide
// validity: the library does, each rule asked alone; explain only walks
// the value to say where.
func explain(s *jsonschema.Schema, v any, path string) *ValidationError {
	if s == nil {
		return nil
	}
	if isFalse(s) {
		return &ValidationError{Field: path, Msg: "no value is allowed here"}
	}
	for _, k := range keywords {
		if a := alone(s, k.fields); a != nil && !accepts(a, v) {
			msg := k.say(s, v)
			if k.fields[0] == "Type" {
				msg += typeHint(s, v, path)
			}
			return &ValidationError{Field: path, Msg: msg}
		}
	}
	switch x := v.(type) {
	case map[string]any:
		if e := explainObject(s, x, path); e != nil {
			return e
		}
	case []any:
		for i, item := range x {
			if e := explain(s.Items, item, path+"["+strconv.Itoa(i)+"]"); e != nil {
				return e
			}
		}
	}
	if len(s.AnyOf) > 0 && !accepts(&jsonschema.Schema{AnyOf: s.AnyOf}, v) {
		return explain(s.AnyOf[0], v, path)
	}
	if len(s.OneOf) > 0 {
		n := 0
		for _, alt := range s.OneOf {
			if accepts(alt, v) {
				n++
			}
		}
		switch {
		case n == 0:
			return explain(s.OneOf[0], v, path)
		case n > 1:
			return &ValidationError{Field: path, Msg: fmt.Sprintf("matches %d alternatives, want exactly one", n)}
		}
	}
	return nil
}

// explainObject names the first fault of the object x: an unknown field
// (a field in the wrong place is the likelier cause of a required one
// missing, and the list of accepted fields shows the right one), a
// required field missing, then a field's value.
func explainObject(s *jsonschema.Schema, x map[string]any, path string) *ValidationError {
	names := make([]string, 0, len(x))
	for k := range x {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if _, ok := s.Properties[k]; ok {
			continue
		}
		f := joinField(path, k)
		if isFalse(s.AdditionalProperties) {
			if len(s.Properties) == 0 {
				return &ValidationError{Field: f, Msg: "unknown field (no fields are accepted here)"}
			}
			accepted := make([]string, 0, len(s.Properties))
			for p := range s.Properties {
				accepted = append(accepted, p)
			}
			sort.Strings(accepted)
			msg := "unknown field"
			if m := spelledAlike(k, accepted); m != "" {
				msg += fmt.Sprintf(", did you mean %q?", m)
			}
			return &ValidationError{Field: f, Msg: msg + " (accepted: " + strings.Join(accepted, ", ") + ")"}
		}
	}
	for _, r := range s.Required {
		if _, ok := x[r]; !ok {
			return &ValidationError{Field: joinField(path, r), Msg: "missing required field"}
		}
	}
	for _, k := range names {
		f := joinField(path, k)
		if ps, ok := s.Properties[k]; ok {
			if e := explain(ps, x[k], f); e != nil {
				return e
			}
			continue
		}
		if e := explain(s.AdditionalProperties, x[k], f); e != nil {
			return e
		}
	}
	return nil
}

// isFalse reports the schema false ({"not": {}}), which accepts nothing.
func isFalse(s *jsonschema.Schema) bool {
	return s != nil && s.Not != nil && reflect.ValueOf(*s.Not).IsZero()
}

// typeOf names a decoded JSON value's type as JSON Schema does (a number
// without a fraction is an integer).
func typeOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if x == math.Trunc(x) {
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

func joinField(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
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

// wordBreaks are the characters a field's name may be spelled with
// between its words (timeout_ms, timeout-ms).
var wordBreaks = strings.NewReplacer("_", "", "-", "")

// spelledAlike returns the accepted field that name spells another way
// (timeout_ms, TimeoutMS or timeout-ms for timeoutMs), or "".
func spelledAlike(name string, accepted []string) string {
	want := strings.ToLower(wordBreaks.Replace(name))
	for _, a := range accepted {
		if strings.ToLower(wordBreaks.Replace(a)) == want {
			return a
		}
	}
	return ""
}
