package tools

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestBound(t *testing.T) {
	s := strings.Repeat("0123456789", 100) // 1000 bytes
	if got := Bound(s, 1000); got != s {
		t.Fatalf("Bound at exactly the size changed the text")
	}
	if got := Bound(s, 0); got != s {
		t.Fatalf("Bound with no bound changed the text")
	}
	got := Bound(s, 200)
	if len(got) > 200 {
		t.Fatalf("len = %d, want <= 200", len(got))
	}
	if !strings.Contains(got, " bytes cut ...]") {
		t.Fatalf("no marker in %q", got)
	}
	head, tail, _ := strings.Cut(got, "\n[... ")
	_, tail, _ = strings.Cut(tail, "...]\n")
	if !strings.HasPrefix(s, head) || !strings.HasSuffix(s, tail) || len(head) == 0 || len(tail) <= len(head) {
		t.Fatalf("head %q / tail %q do not come from the text's ends", head, tail)
	}
	var n int
	if _, err := fmtSscan(got, &n); err != nil || n != len(s)-len(head)-len(tail) {
		t.Fatalf("marker says %d bytes cut, want %d (%v)", n, len(s)-len(head)-len(tail), err)
	}
	if got := Bound(s, 10); got != s[990:] {
		t.Fatalf("tiny bound: got %q, want the last 10 bytes", got)
	}
}

func TestBoundKeepsUTF8(t *testing.T) {
	s := strings.Repeat("é日本🙂", 200)
	for max := 1; max < 300; max++ {
		got := Bound(s, max)
		if len(got) > max || !utf8.ValidString(got) {
			t.Fatalf("Bound(_, %d) = %d bytes, valid %v", max, len(got), utf8.ValidString(got))
		}
	}
}

// fmtSscan reads the number out of a cut marker.
func fmtSscan(s string, n *int) (int, error) {
	i := strings.Index(s, "[... ")
	j := strings.Index(s, " bytes cut")
	if i < 0 || j < i {
		return 0, errNoMarker
	}
	v := 0
	for _, c := range s[i+5 : j] {
		v = v*10 + int(c-'0')
	}
	*n = v
	return 1, nil
}

var errNoMarker = &ValidationError{Msg: "no marker"}

func FuzzBound(f *testing.F) {
	f.Add("hello world", 5)
	f.Add(strings.Repeat("ab\n", 100), 64)
	f.Add("é日本🙂\xff\xfe", 3)
	f.Fuzz(func(t *testing.T, s string, max int) {
		max %= 1 << 16
		got := Bound(s, max)
		if max <= 0 || len(s) <= max {
			if got != s {
				t.Fatalf("Bound changed a text within the bound")
			}
			return
		}
		if len(got) > max {
			t.Fatalf("len %d > max %d", len(got), max)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("Bound broke UTF-8: %q", got)
		}
	})
}

// TestBoundHead: the start is kept, the cut is marked, the result fits,
// and a bound smaller than the marker gives a short result instead of a
// panic (the copy this replaced indexed before the string's start).
func TestBoundHead(t *testing.T) {
	s := strings.Repeat("é", 100)
	for _, max := range []int{1, 10, 23, 50, 199} {
		b := BoundHead(s, max)
		if len(b) > max || !utf8.ValidString(strings.SplitN(b, "\n", 2)[0]) {
			t.Fatalf("BoundHead(%d) = %q", max, b)
		}
	}
	b := BoundHead(s, 50)
	if len(b) > 50 || !strings.HasPrefix(b, "é") || !strings.HasSuffix(b, " bytes cut ...]") {
		t.Fatalf("BoundHead = %q", b)
	}
	if BoundHead("short", 50) != "short" || BoundHead(s, 0) != s {
		t.Fatal("text within the bound changed")
	}
	if got := HeadRunes("aé", 2); got != "a" {
		t.Fatalf("HeadRunes split a rune: %q", got)
	}
}
