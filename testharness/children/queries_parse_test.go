package main

import (
	"strings"
	"testing"
)

func TestParseReplies(t *testing.T) {
	cases := []struct {
		in   string
		want replies
	}{
		{"\x1b[?62;22c\x1b[3;7R", replies{da1: "?62;22", da1Found: true, row: 3, col: 7, cprFound: true}},
		{"junk\x1b[12;80Rmore\x1b[?1;2c", replies{da1: "?1;2", da1Found: true, row: 12, col: 80, cprFound: true}},
		{"\x1b[?62;22c", replies{da1: "?62;22", da1Found: true}},
		{"\x1b[3;7", replies{}},                 // cut short
		{"\x1b[0;7R\x1b[;7R\x1b[3R", replies{}}, // not positions
		{"\x1b[c\x1b[?c", replies{}},            // no parameters
		{"\x1b[1;1R\x1b[2;2R", replies{row: 1, col: 1, cprFound: true}},
	}
	for _, c := range cases {
		if got := parseReplies([]byte(c.in)); got != c.want {
			t.Errorf("parseReplies(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

func FuzzParseReplies(f *testing.F) {
	f.Add([]byte("\x1b[?62;22c\x1b[3;7R"))
	f.Add([]byte("\x1b[9999999;1R"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := parseReplies(b)
		if r.cprFound && (r.row < 1 || r.col < 1) {
			t.Fatalf("position %d;%d accepted", r.row, r.col)
		}
		if r.da1Found && (!strings.HasPrefix(r.da1, "?") || !strings.Contains(string(b), "\x1b["+r.da1+"c")) {
			t.Fatalf("DA1 %q is not in the input", r.da1)
		}
	})
}
