package gdbmi

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParseLine checks that no input panics, that errors are positioned
// *SyntaxErrors, and that every accepted record renders to text that
// parses back to the same record.
func FuzzParseLine(f *testing.F) {
	f.Add([]byte(`5^done,bkpt={number="1",thread-groups=["i1"]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		rec, err := ParseLine(line)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v is not a *SyntaxError", err, err)
			}
			if se.Column < 1 || se.Column > len(line)+1 {
				t.Fatalf("column %d out of range for %d bytes", se.Column, len(line))
			}
			return
		}
		text := rec.String()
		again, err := ParseLineString(text)
		if err != nil {
			t.Fatalf("rendered %q does not parse: %v", text, err)
		}
		if again.String() != text {
			t.Fatalf("round trip: %q -> %q", text, again.String())
		}
	})
}

// FuzzFramer checks that splitting a stream at any point yields the same
// lines as feeding it whole, and that nothing panics.
func FuzzFramer(f *testing.F) {
	f.Add([]byte("^done\r\n(gdb) \r\n"), uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		var whole Framer
		want := whole.Flush(whole.Feed(nil, data))
		c := int(cut)
		if c > len(data) {
			c = len(data)
		}
		var split Framer
		got := split.Feed(nil, data[:c])
		got = split.Feed(got, data[c:])
		got = split.Flush(got)
		if len(got) != len(want) {
			t.Fatalf("split at %d: %d lines, want %d", c, len(got), len(want))
		}
		for i := range got {
			if got[i].Text != want[i].Text || got[i].Num != want[i].Num || (got[i].Err == nil) != (want[i].Err == nil) {
				t.Fatalf("split at %d: line %d differs: %q vs %q", c, i, got[i].Text, want[i].Text)
			}
			if strings.ContainsAny(got[i].Text, "\r\n") || got[i].Text == "" {
				t.Fatalf("line %q holds a line end or is empty", got[i].Text)
			}
		}
	})
}
