package scrollback

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func reader(b *Buffer) func(PageRequest) (Page, error) {
	return func(r PageRequest) (Page, error) { return b.Page(r, 0), nil }
}

// cursorStep is a write to a buffer and what a cursor reads after it.
type cursorStep struct {
	write string
	want  Delta
}

// readSteps writes each step to b and checks what one cursor reads after
// it.
func readSteps(t *testing.T, b *Buffer, steps []cursorStep) {
	t.Helper()
	var c Cursor
	for i, s := range steps {
		b.Write([]byte(s.write))
		got, err := c.Next(reader(b), 100, 0)
		if err != nil || got != s.want {
			t.Fatalf("step %d (%q): %+v %v, want %+v", i, s.write, got, err, s.want)
		}
	}
}

func TestCursorSteps(t *testing.T) {
	readSteps(t, New(Limits{}), []cursorStep{
		{"", Delta{}},
		{"$ ", Delta{Text: "$ "}},
		{"ls\r\n", Delta{Text: "ls\n"}},
		{"", Delta{}},
		{"a\nb\n", Delta{Text: "a\nb\n"}},
		{"10%", Delta{Text: "10%"}},
		{"\r20%", Delta{Text: "\r20%"}},
		{"\r20%!", Delta{Text: "!"}},
		{"\r\n", Delta{Text: "\n"}},
		{"pass: ", Delta{Text: "pass: "}},
		{"\x1b[2K\r", Delta{Text: "\r"}},
		{"user: ", Delta{Text: "user: "}},
	})
}

// TestPartialBlanksThenTrimmed: a partial line returned with its
// trailing blanks, then completed (and stored trimmed), continues with the
// newline alone, not repeated whole after a "\r"; one completed with more
// text continues with that text.
func TestPartialBlanksThenTrimmed(t *testing.T) {
	readSteps(t, New(Limits{}), []cursorStep{
		{"row 1   ", Delta{Text: "row 1   "}},
		{"  \n", Delta{Text: "\n"}},
		{"a  ", Delta{Text: "a  "}},
		{"b  \n", Delta{Text: "b\n"}},
		{"x ", Delta{Text: "x "}},
		{"\ry\n", Delta{Text: "\ry\n"}},
	})
}

func TestCursorReadError(t *testing.T) {
	b := New(Limits{})
	b.Write([]byte("abc"))
	c := b.End()
	before := c
	boom := errors.New("boom")
	calls := 0
	_, err := c.Next(func(PageRequest) (Page, error) { calls++; return Page{}, boom }, 10, 0)
	if !errors.Is(err, boom) || c != before || calls != 1 {
		t.Fatalf("err %v cursor %+v calls %d", err, c, calls)
	}
}

func TestCursorRequest(t *testing.T) {
	var got []PageRequest
	read := func(r PageRequest) (Page, error) { got = append(got, r); return Page{}, nil }
	var c Cursor
	c.Next(read, 7, 0)
	c.Next(read, 0, 0)
	if len(got) != 2 || got[0] != (PageRequest{Newest: true, Count: 7}) || got[1] != (PageRequest{Newest: true, Count: 1}) {
		t.Fatalf("requests %+v", got)
	}
}

func TestCursorSkips(t *testing.T) {
	b := numbered(Limits{MaxLines: 4}, 10) // retains L6..L9
	var c Cursor
	d, _ := c.Next(reader(b), 100, 0)
	if d != (Delta{Text: "L6\nL7\nL8\nL9\n", Truncated: true, Skipped: 6}) {
		t.Fatalf("delta %+v", d)
	}
	// maxLines bounds the read; the rest counts as skipped.
	fmt.Fprintf(b, "L10\nL11\nL12\n")
	d, _ = c.Next(reader(b), 2, 0)
	if d != (Delta{Text: "L11\nL12\n", Truncated: true, Skipped: 1}) {
		t.Fatalf("delta %+v", d)
	}
	// maxBytes drops the oldest lines, counting them.
	fmt.Fprintf(b, "L13\nL14\nL15\n")
	d, _ = c.Next(reader(b), 100, 9)
	if d != (Delta{Text: "L14\nL15\n", Truncated: true, Skipped: 1}) {
		t.Fatalf("delta %+v", d)
	}
	// A lone over-long line keeps its tail.
	fmt.Fprintf(b, "0123456789\n")
	d, _ = c.Next(reader(b), 100, 5)
	if d != (Delta{Text: "6789\n", Truncated: true}) {
		t.Fatalf("delta %+v", d)
	}
	d, _ = c.Next(reader(b), 100, 5)
	if d != (Delta{}) {
		t.Fatalf("nothing new, got %+v", d)
	}
}

func TestCursorLostRestOfPartialLine(t *testing.T) {
	b := New(Limits{MaxLines: 3})
	b.Write([]byte("abc"))
	var c Cursor
	c.Next(reader(b), 10, 0)
	b.Write([]byte("def\n1\n2\n3\n"))
	d, _ := c.Next(reader(b), 10, 0)
	// "abcdef" is gone: its returned part is closed, not counted.
	if d != (Delta{Text: "\n1\n2\n3\n", Truncated: true}) {
		t.Fatalf("delta %+v", d)
	}
}

func TestCursorFromEnd(t *testing.T) {
	b := New(Limits{})
	b.Write([]byte("old\n>>> "))
	c := b.End()
	b.Write([]byte("1+1\r\n2\r\n>>> "))
	d, _ := c.Next(reader(b), 10, 0)
	if d != (Delta{Text: "1+1\n2\n>>> "}) {
		t.Fatalf("delta %+v", d)
	}
}

func TestCursorPartialTailKeepsARune(t *testing.T) {
	b := New(Limits{})
	b.Write([]byte(strings.Repeat("\u4e16", 4)))
	var c Cursor
	d, _ := c.Next(reader(b), 10, 2)
	if d != (Delta{Text: "\u4e16", Truncated: true}) {
		t.Fatalf("delta %+v", d)
	}
	b.Write([]byte("x"))
	d, _ = c.Next(reader(b), 10, 0)
	if d != (Delta{Text: "x"}) {
		t.Fatalf("delta %+v", d)
	}
}

func TestCursorBadPage(t *testing.T) {
	// A page claiming more lines than it holds must not panic.
	read := func(PageRequest) (Page, error) {
		return Page{Lines: []string{"a"}, PageSpan: PageSpan{Start: 0, End: 5, Total: 5}}, nil
	}
	var c Cursor
	d, err := c.Next(read, 10, 0)
	if err != nil || d.Text != "a\n" {
		t.Fatalf("delta %+v %v", d, err)
	}
}

// TestCursorRedrawOfRowsTaken: prompt_toolkit redraws an input typed
// over several reads (IPython's block, each line sent alone) from its
// first row; the rows a reader already took are not returned again.
func TestCursorRedrawOfRowsTaken(t *testing.T) {
	b := New(Limits{})
	readSteps(t, b, []cursorStep{
		{"In [1]: for i in x:\r\r\n   ...:     ", Delta{Text: "In [1]: for i in x:\n   ...:     "}},
		{"print(i)\r\r\n   ...:     ", Delta{Text: "print(i)\n   ...:     "}},
		{"\x1b[12D\x1b[2A\x1b[JIn [1]: for i in x:\r\r\n   ...:     print(i)\r\r\n   ...:\r\r\n0\r\n\r\nIn [2]: ", Delta{Text: "\n0\n\nIn [2]: "}},
	})
	want := []string{"In [1]: for i in x:", "   ...:     print(i)", "   ...:", "0", "", "In [2]: "}
	if got := everything(b).Lines; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("lines %q, want %q", got, want)
	}
}
