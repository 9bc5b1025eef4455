package core

import (
	"strings"
	"testing"
)

func TestAsPaste(t *testing.T) {
	const s, e = pasteStart, pasteEnd
	cases := []struct {
		name, data, want string
		pasted           bool
	}{
		{"one line", "print(1)", "print(1)", false},
		{"lines with no indentation", "break main\nrun\n", "break main\nrun\n", false},
		{"indented first line only", "  x = 1\ny = 2", "  x = 1\ny = 2", false},
		{"a block", "def f():\n    return 1\n", s + "def f():\n    return 1" + e + "\n", true},
		{"a block, then a call", "def f():\n    return 1\n\nf()", s + "def f():\n    return 1" + e + "\n\nf()", true},
		{"blank lines inside a block", "class A:\n    x = 1\n\n    y = 2\n\nA.y\n", s + "class A:\n    x = 1\n\n    y = 2" + e + "\n\nA.y\n", true},
		{"two blocks", "if 1:\n  a()\n\nif 2:\n  b()\n\n", s + "if 1:\n  a()" + e + "\n\n" + s + "if 2:\n  b()" + e + "\n\n", true},
		{"a statement, then a block", "x = 1\n\nfor i in x:\n\tp(i)", "x = 1\n\n" + s + "for i in x:\n\tp(i)" + e, true},
		{"carriage returns", "if 1:\r\n  a()\r\n", s + "if 1:\r\n  a()" + e + "\r\n", true},
		{"an escape", "if 1:\n  a()\x1b[A", "if 1:\n  a()\x1b[A", false},
		{"whitespace lines only", "x\n   \n  ", "x\n   \n  ", false},
	}
	for _, c := range cases {
		got, ok := asPaste(c.data)
		if got != c.want || ok != c.pasted {
			t.Errorf("%s: asPaste(%q) = %q, %v; want %q, %v", c.name, c.data, got, ok, c.want, c.pasted)
		}
	}
}

func FuzzAsPaste(f *testing.F) {
	for _, s := range []string{"def f():\n    return 1\n\nf()", "a\n b\n\nc\n d", "x\r\n  y\r\n", "\n\n  \n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		got, ok := asPaste(data)
		if !ok {
			if got != data {
				t.Fatalf("not pasted, but changed: %q -> %q", data, got)
			}
			return
		}
		// The markers alternate, start first, and each paste holds a
		// block: several lines, a later one indented.
		rest := got
		for {
			i := strings.Index(rest, pasteStart)
			if i < 0 {
				break
			}
			j := strings.Index(rest[i:], pasteEnd)
			if j < 0 || strings.Contains(rest[:i], pasteEnd) {
				t.Fatalf("%q: markers out of order in %q", data, got)
			}
			block := rest[i+len(pasteStart) : i+j]
			if _, later, ok := strings.Cut(block, "\n"); !ok || !hasIndentedLine(later, splitLines(later)) {
				t.Fatalf("%q: pasted %q, not an indented block", data, block)
			}
			rest = rest[i+j+len(pasteEnd):]
		}
		if strings.Contains(rest, pasteEnd) {
			t.Fatalf("%q: an end marker without a start in %q", data, got)
		}
		// Without its markers, a paste is the data as it was.
		var plain []byte
		for i := 0; i < len(got); i++ {
			if got[i] == '\x1b' {
				i += len(pasteStart) - 1
				continue
			}
			plain = append(plain, got[i])
		}
		if string(plain) != data {
			t.Fatalf("markers aside, %q -> %q", data, plain)
		}
	})
}
