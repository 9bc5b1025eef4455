package gdbmi_test

import (
	"fmt"
	"strings"

	"github.com/ptyseam/ptyseam/consumers/gdbmi"
)

func ExampleParseLine() {
	rec, err := gdbmi.ParseLine([]byte(`*stopped,reason="breakpoint-hit",bkptno="1",frame={func="add",args=[{name="a",value="0"}],file="simple.c",line="9"},thread-id="1"` + "\r\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rec.Type, rec.Class, rec.Get("reason").Str())
	fmt.Println(rec.Results.Path("frame", "func").Str(), rec.Results.Path("frame", "line").Str())
	fmt.Println(rec.Get("frame").Get("args").Index(0).Get("name").Str())
	// Output:
	// exec stopped breakpoint-hit
	// add 9
	// a
}

func ExampleParseLine_error() {
	_, err := gdbmi.ParseLine([]byte(`^done,value="unterminated`))
	fmt.Println(err)
	// Output:
	// gdbmi: syntax error at column 13: unterminated c-string (near "\"unterminated")
}

func ExampleUnquote() {
	// gdb prints non-ASCII bytes as octal escapes; they come back as the
	// original UTF-8.
	s, _ := gdbmi.Unquote(`"h\303\251llo \342\234\223\e[0m"`)
	fmt.Printf("%q\n", s)
	// Output:
	// "héllo ✓\x1b[0m"
}

func ExampleFramer() {
	var f gdbmi.Framer
	// Output arrives in arbitrary chunks with CR-LF line ends.
	var lines []gdbmi.Line
	for _, chunk := range []string{"12^done,value=\"4", "2\"\r\n(gdb) \r", "\n=thread-group-added,id=\"i1\"\r\n"} {
		lines = f.Feed(lines, []byte(chunk))
	}
	for _, l := range lines {
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%d %s %d %s%s", l.Num, l.Record.Type, l.Record.Token, l.Record.Get("value").Str(), l.Record.Get("id").Str())))
	}
	// Output:
	// 1 result 12 42
	// 2 prompt 0
	// 3 notify 0 i1
}

func ExampleDecode() {
	rec, _ := gdbmi.ParseLine([]byte(`^done,BreakpointTable={nr_rows="2",body=[bkpt={number="1",enabled="y",line="9"},bkpt={number="2",enabled="n",line="25"}]}`))
	var table struct {
		Rows int `mi:"nr_rows"`
		Body []struct {
			Number  string `mi:"number"`
			Enabled bool   `mi:"enabled"`
			Line    int    `mi:"line"`
		} `mi:"body"`
	}
	if err := gdbmi.Decode(rec.Get("BreakpointTable"), &table); err != nil {
		fmt.Println(err)
		return
	}
	var parts []string
	for _, b := range table.Body {
		parts = append(parts, fmt.Sprintf("%s:%v:%d", b.Number, b.Enabled, b.Line))
	}
	fmt.Println(table.Rows, strings.Join(parts, " "))
	// Output:
	// 2 1:true:9 2:false:25
}
