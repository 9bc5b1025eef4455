package gdbmi

import (
	"strconv"
	"strings"
)

// Kind is the shape of a [Value].
type Kind uint8

// Value kinds. The zero Value has KindNone: it is what lookups return for a
// missing name or index.
const (
	KindNone   Kind = iota // no value (a failed lookup)
	KindString             // a c-string constant
	KindTuple              // {name=value,...}
	KindList               // [value,...] or [name=value,...]
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case KindString:
		return "string"
	case KindTuple:
		return "tuple"
	case KindList:
		return "list"
	default:
		return "none"
	}
}

// Field is one name=value pair of a record, a tuple or a list of results.
type Field struct {
	Name  string
	Value Value
}

// Value is a GDB/MI value: a string, a tuple of results, or a list. A list
// holds either values ([a,b]) or results ([frame={...},frame={...}]); a list
// of results keeps its names, their order and any duplicates, exactly as a
// tuple does.
//
// Values are immutable once parsed. The zero Value is KindNone; every lookup
// on it (or on a value of the wrong kind) returns another zero Value, so
// chains such as v.Get("frame").Get("line").Str() never panic.
type Value struct {
	kind   Kind
	str    string
	fields []Field // tuple, or list of results
	elems  []Value // list of values
}

// StringValue returns a string value.
func StringValue(s string) Value { return Value{kind: KindString, str: s} }

// TupleValue returns a tuple holding fields in order.
func TupleValue(fields ...Field) Value { return Value{kind: KindTuple, fields: fields} }

// ListValue returns a list of values.
func ListValue(elems ...Value) Value { return Value{kind: KindList, elems: elems} }

// ResultListValue returns a list of results (named elements).
func ResultListValue(fields ...Field) Value { return Value{kind: KindList, fields: fields} }

// Kind returns the value's shape.
func (v Value) Kind() Kind { return v.kind }

// IsNone reports whether v is the zero Value (a failed lookup).
func (v Value) IsNone() bool { return v.kind == KindNone }

// Str returns the content of a string value, or "" for any other kind.
func (v Value) Str() string {
	if v.kind != KindString {
		return ""
	}
	return v.str
}

// AsString returns the content of a string value and whether v is one.
func (v Value) AsString() (string, bool) { return v.str, v.kind == KindString }

// Int parses a string value as an integer: decimal, or hexadecimal with a
// 0x prefix, or octal with a leading 0 (as gdb prints exit codes).
func (v Value) Int() (int64, error) {
	if v.kind != KindString {
		return 0, &DecodeError{Msg: "cannot read " + v.kind.String() + " as an integer"}
	}
	n, err := strconv.ParseInt(v.str, 0, 64)
	if err != nil {
		return 0, &DecodeError{Msg: "not an integer: " + strconv.Quote(v.str), Err: err}
	}
	return n, nil
}

// Uint parses a string value as an unsigned integer, like [Value.Int]
// (addresses such as "0x0000555555555163").
func (v Value) Uint() (uint64, error) {
	if v.kind != KindString {
		return 0, &DecodeError{Msg: "cannot read " + v.kind.String() + " as an integer"}
	}
	n, err := strconv.ParseUint(v.str, 0, 64)
	if err != nil {
		return 0, &DecodeError{Msg: "not an unsigned integer: " + strconv.Quote(v.str), Err: err}
	}
	return n, nil
}

// IsResultList reports whether v is a list whose elements are named.
func (v Value) IsResultList() bool { return v.kind == KindList && v.fields != nil }

// Fields returns the named fields of a tuple or of a list of results, in
// order with duplicates. The slice must not be modified.
func (v Value) Fields() []Field {
	if v.kind == KindTuple || v.kind == KindList {
		return v.fields
	}
	return nil
}

// Len returns the number of fields of a tuple, the number of elements of a
// list, or the byte length of a string.
func (v Value) Len() int {
	switch v.kind {
	case KindString:
		return len(v.str)
	case KindTuple:
		return len(v.fields)
	case KindList:
		if v.fields != nil {
			return len(v.fields)
		}
		return len(v.elems)
	}
	return 0
}

// Index returns the i-th element of a list (for a list of results, the
// value of its i-th result) or the value of a tuple's i-th field, and the
// zero Value when i is out of range.
func (v Value) Index(i int) Value {
	if i < 0 {
		return Value{}
	}
	switch {
	case v.kind == KindList && v.fields == nil:
		if i < len(v.elems) {
			return v.elems[i]
		}
	case v.kind == KindTuple || v.kind == KindList:
		if i < len(v.fields) {
			return v.fields[i].Value
		}
	}
	return Value{}
}

// Elems returns the elements of a list: its values, or for a list of
// results the values of its results. It returns nil for other kinds.
func (v Value) Elems() []Value {
	if v.kind != KindList {
		return nil
	}
	if v.fields == nil {
		return v.elems
	}
	out := make([]Value, len(v.fields))
	for i, f := range v.fields {
		out[i] = f.Value
	}
	return out
}

// Lookup returns the value of the first field called name in a tuple or a
// list of results.
func (v Value) Lookup(name string) (Value, bool) {
	if v.kind != KindTuple && v.kind != KindList {
		return Value{}, false
	}
	for i := range v.fields {
		if v.fields[i].Name == name {
			return v.fields[i].Value, true
		}
	}
	return Value{}, false
}

// Get returns the value of the first field called name, or the zero Value.
func (v Value) Get(name string) Value {
	r, _ := v.Lookup(name)
	return r
}

// All returns the values of every field called name, in order (gdb repeats
// names, for example bkpt= in a breakpoint table body).
func (v Value) All(name string) []Value {
	var out []Value
	if v.kind != KindTuple && v.kind != KindList {
		return nil
	}
	for i := range v.fields {
		if v.fields[i].Name == name {
			out = append(out, v.fields[i].Value)
		}
	}
	return out
}

// Path follows names through nested tuples and lists of results:
// v.Path("frame", "line") is v.Get("frame").Get("line").
func (v Value) Path(names ...string) Value {
	for _, n := range names {
		v = v.Get(n)
	}
	return v
}

// String renders v in GDB/MI syntax (strings quoted and escaped).
func (v Value) String() string {
	var b strings.Builder
	v.appendMI(&b)
	return b.String()
}

func (v Value) appendMI(b *strings.Builder) {
	switch v.kind {
	case KindString:
		b.WriteString(Quote(v.str))
	case KindTuple:
		b.WriteByte('{')
		appendResults(b, v.fields)
		b.WriteByte('}')
	case KindList:
		b.WriteByte('[')
		if v.fields != nil {
			appendResults(b, v.fields)
		} else {
			for i, e := range v.elems {
				if i > 0 {
					b.WriteByte(',')
				}
				e.appendMI(b)
			}
		}
		b.WriteByte(']')
	}
}

func appendResults(b *strings.Builder, fields []Field) {
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		if f.Name != "" {
			b.WriteString(f.Name)
			b.WriteByte('=')
		}
		f.Value.appendMI(b)
	}
}
