package ssh

import (
	"os/exec"
	"strings"
	"testing"
)

// unquote is a small POSIX-shell word reader for single quotes and the
// backslash-escaped quote ShellQuote produces, used to check round trips.
func unquote(t *testing.T, q string) string {
	var b strings.Builder
	for i := 0; i < len(q); {
		switch q[i] {
		case '\'':
			j := strings.IndexByte(q[i+1:], '\'')
			if j < 0 {
				t.Fatalf("unterminated quote in %q", q)
			}
			b.WriteString(q[i+1 : i+1+j])
			i += j + 2
		case '\\':
			if i+1 >= len(q) {
				t.Fatalf("trailing backslash in %q", q)
			}
			b.WriteByte(q[i+1])
			i += 2
		default:
			if !isShellSafe(q[i]) {
				t.Fatalf("unquoted special byte %q in %q", q[i], q)
			}
			b.WriteByte(q[i])
			i++
		}
	}
	return b.String()
}

func FuzzShellQuote(f *testing.F) {
	for _, s := range []string{"", "plain", "it's", "a b", "$HOME", "`x`", "'", "''", "\n", "*?[", "-n", "a=b", "~", "\xff\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := ShellQuote(s)
		if got := unquote(t, q); got != s {
			t.Fatalf("ShellQuote(%q) = %q reads back as %q", s, q, got)
		}
	})
}

func TestShellQuoteRealShell(t *testing.T) {
	cases := []string{"", "plain", "it's", "a b  c", "$HOME", "`id`", "$(id)", "'", "\\", "\"", "line\nbreak", "*", "a=b", "~root", "-n", "!x", "é ü"}
	for _, sh := range []string{"/bin/sh", "/bin/bash"} {
		for _, c := range cases {
			out, err := exec.Command(sh, "-c", "printf %s "+ShellQuote(c)).Output()
			if err != nil || string(out) != c {
				t.Errorf("%s: %q -> %q (%v)", sh, c, out, err)
			}
		}
	}
	if got := ShellJoin([]string{"a=b", "x y"}); got != "'a=b' 'x y'" {
		t.Errorf("ShellJoin = %q", got)
	}
}

func TestEncodeModes(t *testing.T) {
	got := encodeModes(map[uint8]uint32{53: 1, 1: 3, 0: 9, 200: 1})
	want := "\x01\x00\x00\x00\x03\x35\x00\x00\x00\x01\x00"
	if got != want {
		t.Fatalf("encodeModes = %q, want %q", got, want)
	}
}
