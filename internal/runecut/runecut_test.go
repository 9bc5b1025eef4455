package runecut

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCutsKeepWholeRunes(t *testing.T) {
	s := "aé€😀b" // 1, 2, 3, 4 and 1 bytes
	for n := -1; n <= len(s)+1; n++ {
		h, tl := Head(s, n), Tail(s, n)
		if !utf8.ValidString(h) || !utf8.ValidString(tl) {
			t.Fatalf("n=%d: head %q tail %q split a rune", n, h, tl)
		}
		if len(h) > max(n, 0) || len(tl) > max(n, 0) {
			t.Fatalf("n=%d: head %q tail %q exceed the budget", n, h, tl)
		}
		if s[:len(h)] != h || s[len(s)-len(tl):] != tl {
			t.Fatalf("n=%d: head %q tail %q are not a prefix and a suffix", n, h, tl)
		}
	}
	if Head(s, 4) != "aé" || Tail(s, 5) != "😀b" {
		t.Fatalf("Head(4)=%q Tail(5)=%q", Head(s, 4), Tail(s, 5))
	}
}

func FuzzCuts(f *testing.F) {
	f.Add("aé€😀b", 3)
	f.Add("\xff\xfe plain", 2)
	f.Fuzz(func(t *testing.T, s string, n int) {
		h, tl := Head(s, n), Tail(s, n)
		if len(h) > max(n, 0) || len(tl) > max(n, 0) {
			t.Fatalf("over budget: %d %d > %d", len(h), len(tl), n)
		}
		if s[:len(h)] != h || s[len(s)-len(tl):] != tl {
			t.Fatal("not a prefix and a suffix")
		}
		if n >= len(s) && (h != s || tl != s) {
			t.Fatal("a string within budget must be kept whole")
		}
		if utf8.ValidString(s) && (!utf8.ValidString(h) || !utf8.ValidString(tl)) {
			t.Fatal("split a rune of a valid string")
		}
	})
}

func TestNamedBoundsWhatACallerPassed(t *testing.T) {
	cases := []struct{ in, want string }{
		{"pty_abc", "pty_abc"},
		{"a\xffb", "a\uFFFDb"},
		{strings.Repeat("x", 70), strings.Repeat("x", 64) + "..."},
		{strings.Repeat("x", 63) + "é", strings.Repeat("x", 63) + "..."},
	}
	for _, c := range cases {
		if got := Named(c.in, 64); got != c.want {
			t.Errorf("Named(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
