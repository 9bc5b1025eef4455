package gdbmi

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cmpValues compares Values (and records and structs holding them) whole:
// kind, string, fields and elements; an empty and a nil slice of fields
// or elements are the same value.
var cmpValues = cmp.Options{cmp.AllowUnexported(Value{}), cmpopts.EquateEmpty()}

func mustParse(t *testing.T, line string) Record {
	t.Helper()
	r, err := ParseLineString(line)
	require.NoError(t, err, "ParseLineString(%q)", line)
	return r
}

func TestParseRecordKinds(t *testing.T) {
	str := func(name, s string) Value { return TupleValue(Field{name, StringValue(s)}) }
	none := TupleValue() // a result or async record without results
	cases := []struct {
		line string
		want Record
	}{
		{"(gdb) ", Record{Type: RecordPrompt}},
		{"(gdb)", Record{Type: RecordPrompt}},
		{"^done", Record{Type: RecordResult, Class: "done", Results: none}},
		{"12^running", Record{Type: RecordResult, Token: 12, HasToken: true, Class: "running", Results: none}},
		{"0^connected", Record{Type: RecordResult, Token: 0, HasToken: true, Class: "connected", Results: none}},
		{"7^error,msg=\"x\"", Record{Type: RecordResult, Token: 7, HasToken: true, Class: "error", Results: str("msg", "x")}},
		{"^exit", Record{Type: RecordResult, Class: "exit", Results: none}},
		{"*stopped,reason=\"exited-normally\"", Record{Type: RecordExec, Class: "stopped", Results: str("reason", "exited-normally")}},
		{"4*running,thread-id=\"all\"", Record{Type: RecordExec, Token: 4, HasToken: true, Class: "running", Results: str("thread-id", "all")}},
		{"+download,section=\".text\"", Record{Type: RecordStatus, Class: "download", Results: str("section", ".text")}},
		{"=thread-group-added,id=\"i1\"", Record{Type: RecordNotify, Class: "thread-group-added", Results: str("id", "i1")}},
		{"~\"Reading symbols\\n\"", Record{Type: RecordConsole, Text: "Reading symbols\n"}},
		{"@\"target says\"", Record{Type: RecordTarget, Text: "target says"}},
		{"&\"warning: x\\n\"", Record{Type: RecordLog, Text: "warning: x\n"}},
		{"~\"\"", Record{Type: RecordConsole}},
	}
	for _, c := range cases {
		r := mustParse(t, c.line)
		if diff := cmp.Diff(c.want, r, cmpValues); diff != "" {
			t.Errorf("%q (-want +got):\n%s", c.line, diff)
		}
		if c.want.Type.IsAsync() || c.want.Type == RecordResult {
			assert.Equal(t, KindTuple, r.Results.Kind(), "%q: results kind", c.line)
		}
	}
}

func TestParseLineEndsIgnored(t *testing.T) {
	for _, s := range []string{"^done\r\n", "^done\n", "^done\r"} {
		r, err := ParseLine([]byte(s))
		if assert.NoError(t, err, "%q", s) {
			want := Record{Type: RecordResult, Class: "done", Results: TupleValue()}
			if diff := cmp.Diff(want, r, cmpValues); diff != "" {
				t.Errorf("%q (-want +got):\n%s", s, diff)
			}
		}
	}
}

func TestParseValues(t *testing.T) {
	r := mustParse(t, `5^done,bkpt={number="1",type="breakpoint",thread-groups=["i1","i2"],locs=[],empty={}},body=[bkpt={number="1"},bkpt={number="2"},bkpt={number="3"}],nested=[[["a"]],{x="y"}]`)
	f := func(name string, v Value) Field { return Field{name, v} }
	sv := StringValue
	want := Record{Type: RecordResult, Token: 5, HasToken: true, Class: "done", Results: TupleValue(
		f("bkpt", TupleValue(
			f("number", sv("1")),
			f("type", sv("breakpoint")),
			f("thread-groups", ListValue(sv("i1"), sv("i2"))),
			f("locs", ListValue()),
			f("empty", TupleValue()),
		)),
		f("body", ResultListValue(
			f("bkpt", TupleValue(f("number", sv("1")))),
			f("bkpt", TupleValue(f("number", sv("2")))),
			f("bkpt", TupleValue(f("number", sv("3")))),
		)),
		f("nested", ListValue(
			ListValue(ListValue(sv("a"))),
			TupleValue(f("x", sv("y"))),
		)),
	)}
	if diff := cmp.Diff(want, r, cmpValues); diff != "" {
		t.Errorf("parsed record (-want +got):\n%s", diff)
	}
	// The accessors find the same values.
	b := r.Get("bkpt")
	if b.Kind() != KindTuple || b.Get("number").Str() != "1" || b.Get("type").Str() != "breakpoint" {
		t.Fatalf("bkpt = %v", b)
	}
	tg := b.Get("thread-groups")
	if tg.Kind() != KindList || tg.IsResultList() || tg.Len() != 2 || tg.Index(1).Str() != "i2" {
		t.Errorf("thread-groups = %v", tg)
	}
	if l := b.Get("locs"); l.Kind() != KindList || l.Len() != 0 {
		t.Errorf("locs = %v", l)
	}
	if e := b.Get("empty"); e.Kind() != KindTuple || e.Len() != 0 {
		t.Errorf("empty = %v", e)
	}
	body := r.Get("body")
	if !body.IsResultList() || body.Len() != 3 {
		t.Fatalf("body = %v", body)
	}
	all := body.All("bkpt")
	if len(all) != 3 {
		t.Fatalf("All(bkpt) = %d values", len(all))
	}
	for i, v := range all {
		if want := string(rune('1' + i)); v.Get("number").Str() != want {
			t.Errorf("bkpt %d number %q, want %q (order lost)", i, v.Get("number").Str(), want)
		}
	}
	if got := body.Fields()[2].Name; got != "bkpt" {
		t.Errorf("third field name %q", got)
	}
	n := r.Get("nested")
	if n.Index(0).Index(0).Index(0).Str() != "a" || n.Index(1).Get("x").Str() != "y" {
		t.Errorf("nested = %v", n)
	}
	if v := r.Results.Path("bkpt", "thread-groups"); v.Index(0).Str() != "i1" {
		t.Errorf("Path = %v", v)
	}
	// Lookups on missing names and wrong kinds never panic.
	if !r.Get("nope").Get("x").Index(3).IsNone() || r.Get("bkpt").Index(-1).Kind() != KindNone {
		t.Error("missing lookups should give the zero Value")
	}
	if r.Get("bkpt").Str() != "" || len(StringValue("s").Fields()) != 0 || StringValue("s").Elems() != nil {
		t.Error("wrong-kind accessors should be empty")
	}
}

func TestParseDuplicateKeysAtTopLevel(t *testing.T) {
	r := mustParse(t, `^done,a="1",b="2",a="3"`)
	want := []Field{{"a", StringValue("1")}, {"b", StringValue("2")}, {"a", StringValue("3")}}
	if diff := cmp.Diff(want, r.Results.Fields(), cmpValues); diff != "" {
		t.Fatalf("fields in order with duplicates (-want +got):\n%s", diff)
	}
	assert.Equal(t, "1", r.Get("a").Str(), "Get should return the first")
}

// TestParseMI2MultiLocation covers gdb's MI2 form of a breakpoint with
// several locations: bare tuples follow bkpt=... where results belong.
func TestParseMI2MultiLocation(t *testing.T) {
	r := mustParse(t, `^done,bkpt={number="1",addr="<MULTIPLE>"},{number="1.1",addr="0x1"},{number="1.2",addr="0x2"}`)
	loc := func(number, addr string) Value {
		return TupleValue(Field{"number", StringValue(number)}, Field{"addr", StringValue(addr)})
	}
	want := []Field{{"bkpt", loc("1", "<MULTIPLE>")}, {"", loc("1.1", "0x1")}, {"", loc("1.2", "0x2")}}
	if diff := cmp.Diff(want, r.Results.Fields(), cmpValues); diff != "" {
		t.Fatalf("fields (-want +got):\n%s", diff)
	}
	r = mustParse(t, `^done,BreakpointTable={body=[bkpt={number="1"},{number="1.1"}]}`)
	number := func(n string) Value { return TupleValue(Field{"number", StringValue(n)}) }
	wantBody := ResultListValue(Field{"bkpt", number("1")}, Field{"", number("1.1")})
	if diff := cmp.Diff(wantBody, r.Results.Path("BreakpointTable", "body"), cmpValues); diff != "" {
		t.Fatalf("body (-want +got):\n%s", diff)
	}
	// A bare tuple with no result before it is still an error.
	_, err := ParseLineString(`^done,{a="b"}`)
	assert.Error(t, err, "bare tuple first should fail")
}

func TestParseEscapes(t *testing.T) {
	cases := map[string]string{
		`~"a\nb\tc\rd"`:                             "a\nb\tc\rd",
		`~"quote \" back \\ end"`:                   "quote \" back \\ end",
		`~"\e[31mred\e[0m bell\a"`:                  "\x1b[31mred\x1b[0m bell\a",
		`~"h\303\251llo \342\234\223 \346\227\245"`: "héllo ✓ 日",
		`~"\000\001\177\377"`:                       "\x00\x01\x7f\xff",
		`~"\b\f\v\'\?"`:                             "\b\f\v'?",
		`~"\x41\x7e"`:                               "A~",
		`~"\0end"`:                                  "\x00end",
		`~"raw é bytes"`:                            "raw é bytes",
	}
	for in, want := range cases {
		assert.Equal(t, want, mustParse(t, in).Text, in)
	}
}

func TestQuoteRoundTrip(t *testing.T) {
	for _, s := range []string{"", "plain", "a\"b\\c\n\t\r", "\x00\x01\x1b\x7f", "héllo ✓ 日本", "\xff\xfe"} {
		q := Quote(s)
		got, err := Unquote(q)
		if assert.NoError(t, err, "Unquote(%s)", q) {
			assert.Equal(t, s, got, "Unquote(Quote(%q)) (quoted %s)", s, q)
		}
	}
	_, err := Unquote(`"a" `)
	assert.Error(t, err, "trailing text accepted")
	_, err = Unquote(`abc`)
	assert.Error(t, err, "unquoted accepted")
}

func TestParseErrorsHavePositions(t *testing.T) {
	cases := []struct {
		line string
		col  int
		msg  string
	}{
		{"", 1, "empty line"},
		{"hello", 1, "not an MI record"},
		{"12", 3, "a token must be followed"},
		{"12~\"x\"", 3, "stream record cannot carry a token"},
		{"12x", 3, "expected '^'"},
		{"^", 2, "missing record class"},
		{"^finished", 2, "unknown result class"},
		{"^done,", 7, "expected a result"},
		{"^done,x", 8, "expected '='"},
		{"^done,x=", 9, "expected a value"},
		{"^done,x=y", 9, "expected a value"},
		{"^done,x=\"abc", 9, "unterminated c-string"},
		{"^done,x=\"a\\qb\"", 11, "unknown escape \\q"},
		{"^done,x=\"\\400\"", 10, "larger than a byte"},
		{"^done,x=\"\\xZZ\"", 10, "without hex digits"},
		{"^done,x={a=\"1\"", 9, "unterminated tuple"},
		{"^done,x={a=\"1\";}", 15, "expected ',' or '}'"},
		{"^done,x=[\"1\"", 9, "unterminated list"},
		{"^done,x=[\"1\",a=\"2\"]", 14, "cannot hold a result"},
		{"^done,x=[a=\"1\";]", 15, "expected ',' or ']'"},
		{"^done,x=\"1\"junk", 12, "expected ','"},
		{"~x", 2, "expected '\"'"},
		{"~\"a\"b", 5, "unexpected text"},
		{"*sto pped", 5, "unexpected ' ' in the record class"},
		{"99999999999999999999999^done", 1, "does not fit in 64 bits"},
		{"^done,x=[", 9, "unterminated list"},
		{"(gdb) x", 1, "not an MI record"},
	}
	for _, c := range cases {
		_, err := ParseLineString(c.line)
		var se *SyntaxError
		if !assert.ErrorAs(t, err, &se, "%q", c.line) {
			continue
		}
		assert.ErrorIs(t, err, ErrSyntax, "%q", c.line)
		assert.Equal(t, c.col, se.Column, "%q: column (message %q)", c.line, se.Msg)
		assert.Contains(t, se.Msg, c.msg, "%q", c.line)
		assert.Contains(t, se.Error(), "column", "%q: the message lacks the column", c.line)
	}
}

func TestParseDepthLimit(t *testing.T) {
	deep := "^done,x=" + strings.Repeat("[", MaxDepth+10) + strings.Repeat("]", MaxDepth+10)
	_, err := ParseLineString(deep)
	require.ErrorIs(t, err, ErrSyntax)
	require.ErrorContains(t, err, "nest deeper")
	ok := "^done,x=" + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	_, err = ParseLineString(ok)
	require.NoError(t, err, "depth %d", MaxDepth)
}

func TestParseHugeLine(t *testing.T) {
	payload := strings.Repeat("0123456789abcdef", 1<<17) // 2 MiB
	r := mustParse(t, `8^done,memory=[{begin="0x1",contents="`+payload+`"}]`)
	if got := r.Get("memory").Index(0).Get("contents").Str(); got != payload {
		t.Fatalf("contents length %d, want %d", len(got), len(payload))
	}
}

func TestRecordString(t *testing.T) {
	for _, s := range []string{
		`3^done,bkpt={number="1",thread-groups=["i1"]}`,
		`*stopped,reason="exited",exit-code="03"`,
		`=thread-group-added,id="i1"`,
		`+download`,
		`~"a\n"`, `@"t"`, `&"l"`,
		`(gdb)`,
		`^done,body=[bkpt={number="1"},bkpt={number="2"}]`,
	} {
		assert.Equal(t, s, mustParse(t, s).String(), "String()")
	}
}

func TestValueNumbers(t *testing.T) {
	n, err := StringValue("03").Int()
	if assert.NoError(t, err, "octal exit code") {
		assert.EqualValues(t, 3, n, "octal exit code")
	}
	n, err = StringValue("012").Int()
	if assert.NoError(t, err, "octal 012") {
		assert.EqualValues(t, 10, n, "octal 012")
	}
	u, err := StringValue("0x0000555555555163").Uint()
	if assert.NoError(t, err, "address") {
		assert.EqualValues(t, uint64(0x555555555163), u, "address")
	}
	_, err = StringValue("abc").Int()
	assert.ErrorIs(t, err, ErrDecode, "abc")
	_, err = TupleValue().Uint()
	assert.ErrorIs(t, err, ErrDecode, "tuple")
}
