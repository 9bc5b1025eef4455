package gdbmi

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func lineTexts(lines []Line) []string {
	var out []string
	for _, l := range lines {
		out = append(out, l.Text)
	}
	return out
}

func TestFramerLineEnds(t *testing.T) {
	in := "^done\r\n~\"a\"\n(gdb) \r=x,a=\"1\"\r\r\n\n*stopped"
	want := []string{"^done", "~\"a\"", "(gdb) ", "=x,a=\"1\"", "*stopped"}
	// Every split of the input into two chunks gives the same lines.
	for cut := 0; cut <= len(in); cut++ {
		var f Framer
		lines := f.Feed(nil, []byte(in[:cut]))
		lines = f.Feed(lines, []byte(in[cut:]))
		lines = f.Flush(lines)
		if got := lineTexts(lines); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("cut %d: got %q", cut, got)
		}
	}
	// Byte by byte as well.
	var f Framer
	var lines []Line
	for i := 0; i < len(in); i++ {
		lines = f.Feed(lines, []byte{in[i]})
	}
	lines = f.Flush(lines)
	if got := lineTexts(lines); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("bytewise: got %q", got)
	}
	// Line numbers count empty lines too: "\r\r\n" is a CR line then a
	// CR-LF line.
	if lines[4].Num != 7 || lines[3].Num != 4 {
		t.Errorf("numbers %d %d", lines[3].Num, lines[4].Num)
	}
}

// TestFramerPromptWithoutLF checks that a prompt ended by CR is delivered
// at once, before the LF arrives.
func TestFramerPromptWithoutLF(t *testing.T) {
	var f Framer
	lines := f.Feed(nil, []byte("1^done\r\n(gdb) \r"))
	if len(lines) != 2 || lines[1].Record.Type != RecordPrompt {
		t.Fatalf("got %+v", lines)
	}
	lines = f.Feed(nil, []byte("\n2^done\r\n"))
	if len(lines) != 1 || lines[0].Record.Token != 2 {
		t.Fatalf("got %+v", lines)
	}
}

func TestFramerBadLineKeepsGoing(t *testing.T) {
	var f Framer
	lines := f.Feed(nil, []byte("garbage here\n3^done\n"))
	if len(lines) != 2 {
		t.Fatalf("got %d lines", len(lines))
	}
	var se *SyntaxError
	if !errors.As(lines[0].Err, &se) || se.Line != 1 || se.Column != 1 {
		t.Fatalf("first line error %v", lines[0].Err)
	}
	if lines[1].Err != nil || lines[1].Record.Token != 3 {
		t.Fatalf("second line %+v", lines[1])
	}
	if !strings.Contains(lines[0].Err.Error(), "line 1, column 1") {
		t.Errorf("message %q", lines[0].Err)
	}
}

// TestFramerTranscriptChunks feeds every transcript in chunks of several
// sizes and checks that the records equal those of a single feed.
func TestFramerTranscriptChunks(t *testing.T) {
	for name, data := range transcripts(t) {
		whole := lineTexts(frameAll(data))
		for _, size := range []int{1, 2, 3, 7, 64, 4096} {
			if size == 1 && len(data) > 100000 {
				continue
			}
			var f Framer
			var lines []Line
			for i := 0; i < len(data); i += size {
				lines = f.Feed(lines, data[i:min(i+size, len(data))])
			}
			lines = f.Flush(lines)
			got := lineTexts(lines)
			if strings.Join(got, "\n") != strings.Join(whole, "\n") {
				t.Errorf("%s: chunks of %d give %d lines, want %d", name, size, len(got), len(whole))
			}
		}
	}
}

func TestReader(t *testing.T) {
	data := transcripts(t)["big"]
	r := NewReader(iotest.OneByteReader(bytes.NewReader(data[:4096])))
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no lines")
	}
	// The large transcript through a normal reader: the 600 KB line
	// arrives whole.
	r = NewReader(bytes.NewReader(data))
	longest := 0
	for {
		l, err := r.Next()
		if err != nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			break
		}
		if l.Err != nil {
			t.Fatalf("line %d: %v", l.Num, l.Err)
		}
		longest = max(longest, len(l.Text))
	}
	if longest < 600000 {
		t.Errorf("longest line %d bytes", longest)
	}
	// A final line without a line end is returned before EOF, and a read
	// error is passed on.
	r = NewReader(io.MultiReader(strings.NewReader("^done\n(gdb)"), iotest.ErrReader(io.ErrUnexpectedEOF)))
	l1, _ := r.Next()
	l2, _ := r.Next()
	_, err := r.Next()
	if l1.Record.Class != "done" || l2.Record.Type != RecordPrompt || err != io.ErrUnexpectedEOF {
		t.Fatalf("got %+v %+v %v", l1, l2, err)
	}
}
