package gdbmi

import (
	"errors"
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
	f := r.Results.Fields()
	if len(f) != 3 || f[0].Name != "a" || f[1].Name != "b" || f[2].Name != "a" || f[2].Value.Str() != "3" {
		t.Fatalf("fields = %+v", f)
	}
	if r.Get("a").Str() != "1" {
		t.Error("Get should return the first")
	}
}

// TestParseMI2MultiLocation covers gdb's MI2 form of a breakpoint with
// several locations: bare tuples follow bkpt=... where results belong.
func TestParseMI2MultiLocation(t *testing.T) {
	r := mustParse(t, `^done,bkpt={number="1",addr="<MULTIPLE>"},{number="1.1",addr="0x1"},{number="1.2",addr="0x2"}`)
	f := r.Results.Fields()
	if len(f) != 3 || f[1].Name != "" || f[2].Value.Get("number").Str() != "1.2" {
		t.Fatalf("fields = %+v", f)
	}
	r = mustParse(t, `^done,BreakpointTable={body=[bkpt={number="1"},{number="1.1"}]}`)
	body := r.Results.Path("BreakpointTable", "body")
	if body.Len() != 2 || body.Index(1).Get("number").Str() != "1.1" {
		t.Fatalf("body = %v", body)
	}
	// A bare tuple with no result before it is still an error.
	if _, err := ParseLineString(`^done,{a="b"}`); err == nil {
		t.Error("bare tuple first should fail")
	}
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
		r := mustParse(t, in)
		if r.Text != want {
			t.Errorf("%s: got %q want %q", in, r.Text, want)
		}
	}
}

func TestQuoteRoundTrip(t *testing.T) {
	for _, s := range []string{"", "plain", "a\"b\\c\n\t\r", "\x00\x01\x1b\x7f", "héllo ✓ 日本", "\xff\xfe"} {
		q := Quote(s)
		got, err := Unquote(q)
		if err != nil || got != s {
			t.Errorf("Unquote(Quote(%q)) = %q, %v (quoted %s)", s, got, err, q)
		}
	}
	if _, err := Unquote(`"a" `); err == nil {
		t.Error("trailing text accepted")
	}
	if _, err := Unquote(`abc`); err == nil {
		t.Error("unquoted accepted")
	}
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
		if !errors.As(err, &se) {
			t.Errorf("%q: error %v is not a *SyntaxError", c.line, err)
			continue
		}
		if !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: errors.Is(ErrSyntax) false", c.line)
		}
		if se.Column != c.col || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("%q: got column %d %q, want column %d containing %q", c.line, se.Column, se.Msg, c.col, c.msg)
		}
		if !strings.Contains(se.Error(), "column") {
			t.Errorf("%q: message %q lacks the column", c.line, se.Error())
		}
	}
}

func TestParseDepthLimit(t *testing.T) {
	deep := "^done,x=" + strings.Repeat("[", MaxDepth+10) + strings.Repeat("]", MaxDepth+10)
	_, err := ParseLineString(deep)
	if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "nest deeper") {
		t.Fatalf("got %v", err)
	}
	ok := "^done,x=" + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := ParseLineString(ok); err != nil {
		t.Fatalf("depth %d: %v", MaxDepth, err)
	}
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
		if got := mustParse(t, s).String(); got != s {
			t.Errorf("String() = %s, want %s", got, s)
		}
	}
}

func TestValueNumbers(t *testing.T) {
	if n, err := StringValue("03").Int(); err != nil || n != 3 {
		t.Errorf("octal exit code: %d %v", n, err)
	}
	if n, err := StringValue("012").Int(); err != nil || n != 10 {
		t.Errorf("octal 012: %d %v", n, err)
	}
	if n, err := StringValue("0x0000555555555163").Uint(); err != nil || n != 0x555555555163 {
		t.Errorf("address: %x %v", n, err)
	}
	if _, err := StringValue("abc").Int(); !errors.Is(err, ErrDecode) {
		t.Errorf("abc: %v", err)
	}
	if _, err := TupleValue().Uint(); !errors.Is(err, ErrDecode) {
		t.Errorf("tuple: %v", err)
	}
}
