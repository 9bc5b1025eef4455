package gdbmi

import (
	"strings"
	"sync"
)

// MaxDepth bounds the nesting of tuples and lists in one line. gdb nests a
// few levels deep; the bound only stops hostile input from exhausting the
// stack. A deeper line is a [*SyntaxError].
const MaxDepth = 4096

// ParseLine parses one line of MI output. A trailing line end (LF, CR-LF
// or CR) is ignored. Malformed input yields a [*SyntaxError] with the
// column; ParseLine never panics.
func ParseLine(line []byte) (Record, error) {
	return parseWithPool(string(trimEOL(line)))
}

// ParseLineString is [ParseLine] for a string.
func ParseLineString(line string) (Record, error) {
	return parseWithPool(strings.TrimRight(line, "\r\n"))
}

var parserPool = sync.Pool{New: func() any { return new(parser) }}

func parseWithPool(s string) (Record, error) {
	p := parserPool.Get().(*parser)
	rec, err := p.parse(s)
	p.s = ""
	parserPool.Put(p)
	return rec, err
}

func trimEOL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// parser holds scratch space reused across lines.
type parser struct {
	s       string
	depth   int
	scratch []Field
	vals    []Value
}

func (p *parser) parse(s string) (Record, error) {
	p.s = s
	p.depth = 0
	if len(s) == 0 {
		return Record{}, syntaxErrorf(s, 0, "empty line")
	}
	if isPrompt(s) {
		return Record{Type: RecordPrompt}, nil
	}
	var rec Record
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 {
		var tok uint64
		for k := 0; k < i; k++ {
			d := uint64(s[k] - '0')
			if tok > (^uint64(0)-d)/10 {
				return Record{}, syntaxErrorf(s, 0, "token %s does not fit in 64 bits", s[:i])
			}
			tok = tok*10 + d
		}
		rec.Token, rec.HasToken = tok, true
	}
	if i >= len(s) {
		return Record{}, syntaxErrorf(s, i, "a token must be followed by a record")
	}
	switch c := s[i]; c {
	case '~', '@', '&':
		if rec.HasToken {
			return Record{}, syntaxErrorf(s, i, "a stream record cannot carry a token")
		}
		if i+1 >= len(s) || s[i+1] != '"' {
			return Record{}, syntaxErrorf(s, i+1, "expected '\"' after %q", c)
		}
		text, end, err := unquote(s, i+1)
		if err != nil {
			return Record{}, err
		}
		if end != len(s) {
			return Record{}, syntaxErrorf(s, end, "unexpected text after the stream record's c-string")
		}
		switch c {
		case '~':
			rec.Type = RecordConsole
		case '@':
			rec.Type = RecordTarget
		default:
			rec.Type = RecordLog
		}
		rec.Text = text
		return rec, nil
	case '^':
		rec.Type = RecordResult
	case '*':
		rec.Type = RecordExec
	case '+':
		rec.Type = RecordStatus
	case '=':
		rec.Type = RecordNotify
	default:
		if rec.HasToken {
			return Record{}, syntaxErrorf(s, i, "expected '^', '*', '+' or '=' after the token")
		}
		return Record{}, syntaxErrorf(s, i, "not an MI record (a record starts with a token, '^', '*', '+', '=', '~', '@', '&' or \"(gdb)\")")
	}
	i++
	cs := i
	for i < len(s) && s[i] != ',' {
		if !isNameByte(s[i]) {
			return Record{}, syntaxErrorf(s, i, "unexpected %q in the record class", s[i])
		}
		i++
	}
	if i == cs {
		return Record{}, syntaxErrorf(s, cs, "missing record class")
	}
	rec.Class = s[cs:i]
	if rec.Type == RecordResult {
		switch rec.Class {
		case ClassDone, ClassRunning, ClassConnected, ClassError, ClassExit:
		default:
			return Record{}, syntaxErrorf(s, cs, "unknown result class %q (want done, running, connected, error or exit)", rec.Class)
		}
	}
	base := len(p.scratch)
	for i < len(s) {
		// s[i] == ','
		i++
		r, end, err := p.result(i, base)
		if err != nil {
			p.scratch = p.scratch[:base]
			return Record{}, err
		}
		p.scratch = append(p.scratch, r)
		i = end
		if i < len(s) && s[i] != ',' {
			p.scratch = p.scratch[:base]
			return Record{}, syntaxErrorf(s, i, "expected ',' or the end of the line after a result")
		}
	}
	rec.Results = Value{kind: KindTuple, fields: p.take(base)}
	return rec, nil
}

// take copies scratch[base:] into an exact-size slice and truncates the
// scratch stack.
func (p *parser) take(base int) []Field {
	n := len(p.scratch) - base
	if n == 0 {
		return nil
	}
	out := make([]Field, n)
	copy(out, p.scratch[base:])
	clear(p.scratch[base:])
	p.scratch = p.scratch[:base]
	return out
}

func isPrompt(s string) bool {
	if !strings.HasPrefix(s, "(gdb)") {
		return false
	}
	for i := 5; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '\t' {
			return false
		}
	}
	return true
}

// isNameByte reports whether c may appear in a variable or class name.
func isNameByte(c byte) bool {
	if c <= ' ' || c == 0x7f {
		return false
	}
	switch c {
	case '=', ',', '{', '}', '[', ']', '"':
		return false
	}
	return true
}

// result parses variable "=" value starting at i. As gdb's MI2 prints the
// locations of a multi-location breakpoint as bare tuples after bkpt=...,
// a bare tuple or list where a result is expected is accepted (with an
// empty name) when a result precedes it at the same level (base).
func (p *parser) result(i, base int) (Field, int, error) {
	s := p.s
	if i < len(s) && (s[i] == '{' || s[i] == '[') && len(p.scratch) > base {
		v, end, err := p.value(i)
		return Field{Value: v}, end, err
	}
	ns := i
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	if i == ns {
		if i >= len(s) {
			return Field{}, 0, syntaxErrorf(s, i, "expected a result (name=value) at the end of the line")
		}
		return Field{}, 0, syntaxErrorf(s, i, "expected a variable name, found %q", s[i])
	}
	if i >= len(s) || s[i] != '=' {
		return Field{}, 0, syntaxErrorf(s, i, "expected '=' after the variable name %q", s[ns:i])
	}
	v, end, err := p.value(i + 1)
	if err != nil {
		return Field{}, 0, err
	}
	return Field{Name: s[ns:i], Value: v}, end, nil
}

func (p *parser) value(i int) (Value, int, error) {
	s := p.s
	if i >= len(s) {
		return Value{}, 0, syntaxErrorf(s, i, "expected a value at the end of the line")
	}
	switch s[i] {
	case '"':
		str, end, err := unquote(s, i)
		if err != nil {
			return Value{}, 0, err
		}
		return Value{kind: KindString, str: str}, end, nil
	case '{':
		return p.tuple(i)
	case '[':
		return p.list(i)
	}
	return Value{}, 0, syntaxErrorf(s, i, "expected a value ('\"', '{' or '['), found %q", s[i])
}

func (p *parser) enter(i int) error {
	p.depth++
	if p.depth > MaxDepth {
		return syntaxErrorf(p.s, i, "values nest deeper than %d levels", MaxDepth)
	}
	return nil
}

func (p *parser) tuple(i int) (Value, int, error) {
	s := p.s
	if err := p.enter(i); err != nil {
		return Value{}, 0, err
	}
	defer func() { p.depth-- }()
	open := i
	i++
	if i < len(s) && s[i] == '}' {
		return Value{kind: KindTuple}, i + 1, nil
	}
	return p.results(i, open, '}', KindTuple, "tuple")
}

// results parses comma-separated results from i up to the closing byte of
// the tuple or list opened at open, and returns them as a value of kind.
func (p *parser) results(i, open int, closing byte, kind Kind, what string) (Value, int, error) {
	s := p.s
	base := len(p.scratch)
	for {
		r, end, err := p.result(i, base)
		if err != nil {
			p.scratch = p.scratch[:base]
			return Value{}, 0, err
		}
		p.scratch = append(p.scratch, r)
		i = end
		if i >= len(s) {
			p.scratch = p.scratch[:base]
			return Value{}, 0, syntaxErrorf(s, open, "unterminated %s", what)
		}
		if s[i] == closing {
			return Value{kind: kind, fields: p.take(base)}, i + 1, nil
		}
		if s[i] != ',' {
			p.scratch = p.scratch[:base]
			return Value{}, 0, syntaxErrorf(s, i, "expected ',' or '%c' in a %s, found %q", closing, what, s[i])
		}
		i++
	}
}

func (p *parser) list(i int) (Value, int, error) {
	s := p.s
	if err := p.enter(i); err != nil {
		return Value{}, 0, err
	}
	defer func() { p.depth-- }()
	open := i
	i++
	if i < len(s) && s[i] == ']' {
		return Value{kind: KindList}, i + 1, nil
	}
	if i >= len(s) {
		return Value{}, 0, syntaxErrorf(s, open, "unterminated list")
	}
	if c := s[i]; c != '"' && c != '{' && c != '[' {
		// A list of results.
		return p.results(i, open, ']', KindList, "list")
	}
	// A list of values.
	base := len(p.vals)
	for {
		if i < len(s) && isNameByte(s[i]) {
			p.vals = p.vals[:base]
			return Value{}, 0, syntaxErrorf(s, i, "a list of values cannot hold a result (name=value)")
		}
		v, end, err := p.value(i)
		if err != nil {
			p.vals = p.vals[:base]
			return Value{}, 0, err
		}
		p.vals = append(p.vals, v)
		i = end
		if i >= len(s) {
			p.vals = p.vals[:base]
			return Value{}, 0, syntaxErrorf(s, open, "unterminated list")
		}
		if s[i] == ']' {
			out := make([]Value, len(p.vals)-base)
			copy(out, p.vals[base:])
			clear(p.vals[base:])
			p.vals = p.vals[:base]
			return Value{kind: KindList, elems: out}, i + 1, nil
		}
		if s[i] != ',' {
			p.vals = p.vals[:base]
			return Value{}, 0, syntaxErrorf(s, i, "expected ',' or ']' in a list, found %q", s[i])
		}
		i++
	}
}
