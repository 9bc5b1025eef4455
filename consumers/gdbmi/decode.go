package gdbmi

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// ErrDecode matches every [*DecodeError] with errors.Is.
var ErrDecode = errors.New("gdbmi: decode error")

// DecodeError reports a value that does not fit the Go type it was decoded
// into.
type DecodeError struct {
	// Path locates the value, e.g. "frame.line" or "stack[2].func".
	Path string
	// Msg says what did not fit.
	Msg string
	// Err is the underlying parse error, if any.
	Err error
}

// Error implements error.
func (e *DecodeError) Error() string {
	s := "gdbmi: decode"
	if e.Path != "" {
		s += " " + e.Path
	}
	return s + ": " + e.Msg
}

// Unwrap returns the underlying error.
func (e *DecodeError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrDecode) true.
func (e *DecodeError) Is(target error) bool { return target == ErrDecode }

var valueType = reflect.TypeFor[Value]()

// Decode fills the value pointed to by dst from v.
//
// Struct fields are matched to tuple (or list-of-results) fields by their
// `mi:"name"` tag, or by their lower-cased Go name when untagged; `mi:"-"`
// skips a field. Missing names leave fields untouched. A slice field takes
// the elements of a list, or, when the name repeats or holds a non-list
// value, every value under that name (so `mi:"bkpt"` collects each bkpt=
// of a breakpoint table body). Strings decode into string; integers
// (decimal, 0x hexadecimal, or 0-prefixed octal as in gdb's exit codes)
// into every integer kind; "y"/"n", "yes"/"no", "true"/"false", "on"/"off"
// and "1"/"0" into bool; tuples into map[string]T (first of repeated names
// wins); anything into [Value] or an empty interface (which receives the
// [Value]). Pointers are allocated as needed.
func Decode(v Value, dst any) error {
	rv := reflect.ValueOf(dst)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &DecodeError{Msg: "destination must be a non-nil pointer"}
	}
	return decodeInto(v, rv.Elem(), "")
}

type fieldInfo struct {
	index int
	name  string
}

var structCache sync.Map // reflect.Type -> []fieldInfo

func structFields(t reflect.Type) []fieldInfo {
	if c, ok := structCache.Load(t); ok {
		return c.([]fieldInfo)
	}
	var out []fieldInfo
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name := strings.ToLower(f.Name)
		if tag, ok := f.Tag.Lookup("mi"); ok {
			tag, _, _ = strings.Cut(tag, ",")
			if tag == "-" {
				continue
			}
			if tag != "" {
				name = tag
			}
		}
		out = append(out, fieldInfo{index: i, name: name})
	}
	c, _ := structCache.LoadOrStore(t, out)
	return c.([]fieldInfo)
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func decodeInto(v Value, rv reflect.Value, path string) error {
	if rv.Type() == valueType {
		rv.Set(reflect.ValueOf(v))
		return nil
	}
	switch rv.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			rv.Set(reflect.New(rv.Type().Elem()))
		}
		return decodeInto(v, rv.Elem(), path)
	case reflect.Interface:
		if rv.NumMethod() != 0 {
			return &DecodeError{Path: path, Msg: "cannot decode into " + rv.Type().String()}
		}
		rv.Set(reflect.ValueOf(v))
		return nil
	case reflect.String:
		s, ok := v.AsString()
		if !ok {
			return mismatch(v, rv, path)
		}
		rv.SetString(s)
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		s, ok := v.AsString()
		if !ok {
			return mismatch(v, rv, path)
		}
		n, err := strconv.ParseInt(s, 0, rv.Type().Bits())
		if err != nil {
			return &DecodeError{Path: path, Msg: "not a " + rv.Type().String() + ": " + strconv.Quote(s), Err: err}
		}
		rv.SetInt(n)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		s, ok := v.AsString()
		if !ok {
			return mismatch(v, rv, path)
		}
		n, err := strconv.ParseUint(s, 0, rv.Type().Bits())
		if err != nil {
			return &DecodeError{Path: path, Msg: "not a " + rv.Type().String() + ": " + strconv.Quote(s), Err: err}
		}
		rv.SetUint(n)
		return nil
	case reflect.Float32, reflect.Float64:
		s, ok := v.AsString()
		if !ok {
			return mismatch(v, rv, path)
		}
		f, err := strconv.ParseFloat(s, rv.Type().Bits())
		if err != nil {
			return &DecodeError{Path: path, Msg: "not a number: " + strconv.Quote(s), Err: err}
		}
		rv.SetFloat(f)
		return nil
	case reflect.Bool:
		s, ok := v.AsString()
		if !ok {
			return mismatch(v, rv, path)
		}
		switch strings.ToLower(s) {
		case "y", "yes", "true", "on", "1":
			rv.SetBool(true)
		case "n", "no", "false", "off", "0":
			rv.SetBool(false)
		default:
			return &DecodeError{Path: path, Msg: "not a boolean: " + strconv.Quote(s)}
		}
		return nil
	case reflect.Slice:
		if v.Kind() != KindList {
			return mismatch(v, rv, path)
		}
		return decodeSlice(v.Elems(), rv, path)
	case reflect.Map:
		if v.Kind() != KindTuple && !v.IsResultList() {
			if v.Kind() == KindList && v.Len() == 0 {
				return nil
			}
			return mismatch(v, rv, path)
		}
		if rv.Type().Key().Kind() != reflect.String {
			return &DecodeError{Path: path, Msg: "map keys must be strings"}
		}
		if rv.IsNil() {
			rv.Set(reflect.MakeMap(rv.Type()))
		}
		et := rv.Type().Elem()
		for _, f := range v.Fields() {
			k := reflect.ValueOf(f.Name).Convert(rv.Type().Key())
			if rv.MapIndex(k).IsValid() {
				continue
			}
			ev := reflect.New(et).Elem()
			if err := decodeInto(f.Value, ev, joinPath(path, f.Name)); err != nil {
				return err
			}
			rv.SetMapIndex(k, ev)
		}
		return nil
	case reflect.Struct:
		if v.Kind() != KindTuple && !v.IsResultList() {
			if v.Kind() == KindList && v.Len() == 0 {
				return nil // gdb prints an empty tuple as [] in places
			}
			return mismatch(v, rv, path)
		}
		for _, fi := range structFields(rv.Type()) {
			fv := rv.Field(fi.index)
			fpath := joinPath(path, fi.name)
			if fv.Kind() == reflect.Slice && fv.Type() != valueType {
				all := v.All(fi.name)
				if len(all) == 0 {
					continue
				}
				if len(all) == 1 && all[0].Kind() == KindList {
					if err := decodeSlice(all[0].Elems(), fv, fpath); err != nil {
						return err
					}
					continue
				}
				if err := decodeSlice(all, fv, fpath); err != nil {
					return err
				}
				continue
			}
			fval, ok := v.Lookup(fi.name)
			if !ok {
				continue
			}
			if err := decodeInto(fval, fv, fpath); err != nil {
				return err
			}
		}
		return nil
	}
	return &DecodeError{Path: path, Msg: "cannot decode into " + rv.Type().String()}
}

func decodeSlice(elems []Value, rv reflect.Value, path string) error {
	out := reflect.MakeSlice(rv.Type(), len(elems), len(elems))
	for i, e := range elems {
		if err := decodeInto(e, out.Index(i), path+"["+strconv.Itoa(i)+"]"); err != nil {
			return err
		}
	}
	rv.Set(out)
	return nil
}

func mismatch(v Value, rv reflect.Value, path string) error {
	return &DecodeError{Path: path, Msg: "cannot decode a " + v.Kind().String() + " into " + rv.Type().String()}
}
