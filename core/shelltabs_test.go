package core

import (
	"bytes"
	"strings"
	"testing"
)

func TestQuoteTabs(t *testing.T) {
	for _, c := range []struct {
		data, want string
		ok         bool
	}{
		{"echo a", "echo a", false},
		{"\tx\ty", "\x16\tx\x16\ty", true},
		{"\x16\tx", "\x16\tx", false}, // quotes itself
	} {
		if got, ok := quoteTabs(c.data); got != c.want || ok != c.ok {
			t.Errorf("quoteTabs(%q) = %q, %v; want %q, %v", c.data, got, ok, c.want, c.ok)
		}
	}
}

// tabPieces cuts after line ends, each piece at most tabPiece bytes but a
// longer line, and the pieces make the data again.
func TestTabPieces(t *testing.T) {
	long := strings.Repeat("y", tabPiece+10)
	for _, data := range []string{
		"",
		"short\n",
		strings.Repeat("\x16\tline\n", 1000),
		"a\n" + long + "\nb\n",
		long,
		strings.Repeat("z", tabPiece-1) + "\n" + "tail",
	} {
		pieces := tabPieces([]byte(data))
		if got := string(bytes.Join(pieces, nil)); got != data {
			t.Fatalf("the pieces of %d bytes make %d", len(data), len(got))
		}
		for i, p := range pieces {
			last := i == len(pieces)-1
			if !last && p[len(p)-1] != '\n' {
				t.Errorf("piece %d of %d bytes does not end a line", i, len(p))
			}
			if len(p) > tabPiece && bytes.Count(p[:len(p)-1], []byte("\n")) > 0 {
				t.Errorf("piece %d holds %d bytes over several lines", i, len(p))
			}
		}
	}
}
