package shellquote

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":       "''",
		"abc":    "'abc'",
		"it's":   `'it'\''s'`,
		"''":     `''\'''\'''`,
		"$x `y`": "'$x `y`'",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

// unquote is a small POSIX-shell word reader for single quotes and the
// backslash-escaped quote Quote produces, used to check round trips.
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
			t.Fatalf("unquoted byte %q in %q", q[i], q)
		}
	}
	return b.String()
}

func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "plain", "it's", "a b", "$HOME", "`x`", "'", "''", "\n", "*?[", "-n", "a=b", "~", "\xff\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		if got := unquote(t, q); got != s {
			t.Fatalf("Quote(%q) = %q reads back as %q", s, q, got)
		}
	})
}

func TestQuoteRealShell(t *testing.T) {
	cases := []string{"", "plain", "it's", "a b  c", "$HOME", "`id`", "$(id)", "'", "\\", "\"", "line\nbreak", "*", "a=b", "~root", "-n", "!x", "é ü"}
	for _, sh := range []string{"/bin/sh", "/bin/bash"} {
		for _, c := range cases {
			out, err := exec.Command(sh, "-c", "printf %s "+Quote(c)).Output()
			if err != nil || string(out) != c {
				t.Errorf("%s: %q -> %q (%v)", sh, c, out, err)
			}
		}
	}
}

// TestQuoteReservedWordIsACommand: a plain word is quoted too, so that a
// program named like a reserved word runs as a command. (The quoting that
// left plain words bare made `done` a syntax error.)
func TestQuoteReservedWordIsACommand(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"done", "if", "a=b"} {
		script := filepath.Join(dir, name)
		if err := os.WriteFile(script, []byte("#!/bin/sh\necho ran\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, sh := range []string{"/bin/sh", "/bin/bash"} {
			cmd := exec.Command(sh, "-c", Quote(name))
			cmd.Env = []string{"PATH=" + dir + ":/usr/bin:/bin"}
			out, err := cmd.CombinedOutput()
			if err != nil || string(out) != "ran\n" {
				t.Errorf("%s -c %s: %q (%v), want the program to run", sh, Quote(name), out, err)
			}
		}
	}
}
