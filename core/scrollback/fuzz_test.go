package scrollback

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// splitBy cuts s into chunks whose sizes come from the bytes of plan.
func splitBy(s, plan []byte) [][]byte {
	var out [][]byte
	for i := 0; len(s) > 0; i++ {
		n := len(s)
		if len(plan) > 0 {
			n = 1 + int(plan[i%len(plan)])%len(s)
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// FuzzClean: any bytes in any chunking never panic, always give valid
// UTF-8, and give the same lines, marks and counters as one write and as
// the reference cleaner.
func FuzzClean(f *testing.F) {
	f.Add([]byte("\x1b[?2004h\x1b]0;user@host: ~\x07user@host:~$ "), []byte{3, 1, 7})
	f.Add([]byte("50%\r100%\r\n"), []byte{1})
	f.Add([]byte("\xe2\x82\xac\xff\xc3"), []byte{1, 2})
	f.Add([]byte("echo \"a\r\n\x1b]133;P;k=s\x07> b\"\r\na\r\nb\r\n\x1b]133;D;0;line=2;inq=0\x07\x1b]133;A\x07~$ \x1b]133;B\x07"), []byte{5, 9})
	f.Fuzz(func(t *testing.T, s, plan []byte) {
		lim := Limits{MaxLines: 64, MaxBytes: 4096, MaxLineBytes: 1 + len(plan)%200}
		whole := New(lim)
		whole.Write(s)
		chunked := New(lim)
		for _, c := range splitBy(s, plan) {
			chunked.Write(c)
		}
		a, b := everything(whole), everything(chunked)
		if !slices.Equal(a.Lines, b.Lines) || whole.Marks() != chunked.Marks() || whole.Stats() != chunked.Stats() {
			t.Fatalf("chunking changed the result:\n%q\n%q", a.Lines, b.Lines)
		}
		for _, l := range a.Lines {
			if !utf8.ValidString(l) || strings.ContainsAny(l, "\r\n\x1b") {
				t.Fatalf("bad line %q", l)
			}
		}
		ref := refClean(s, lim.MaxLineBytes)
		want := ref.all()
		if a.Total != int64(len(want)) {
			t.Fatalf("Total %d, reference has %d lines", a.Total, len(want))
		}
		if len(want) > len(a.Lines) {
			want = want[len(want)-len(a.Lines):]
		}
		if !slices.Equal(a.Lines, want) || whole.Marks() != ref.marks {
			t.Fatalf("differs from the reference:\n got %q\nwant %q", a.Lines, want)
		}
	})
}

// FuzzCursor: a cursor reading in random steps rebuilds the cleaned text
// exactly when nothing was truncated, and accounts for every line.
func FuzzCursor(f *testing.F) {
	f.Add([]byte("\x1b]133;B\x07ls\r\nfoo\r\n\x1b]133;D;0\x07$ "), []byte{5, 2, 9}, uint8(3), uint8(0))
	f.Add([]byte("10%\r20%\r30%\r\ndone\n"), []byte{2}, uint8(1), uint8(4))
	f.Fuzz(func(t *testing.T, s, plan []byte, maxLines, maxBytes uint8) {
		lim := Limits{MaxLines: 1 + len(plan)%40, MaxBytes: 64 + len(s)%512, MaxLineBytes: 32}
		if len(plan)%2 == 0 {
			lim = Limits{MaxLines: 1 << 20, MaxBytes: 1 << 26, MaxLineBytes: 1 << 16}
		}
		b := New(lim)
		var c Cursor
		var v view
		var all strings.Builder
		truncated := false
		written := 0
		var reads []int
		step := func(ml, mb int) {
			reads = append(reads, written)
			d, err := c.Next(reader(b), ml, mb)
			if err != nil {
				t.Fatal(err)
			}
			truncated = truncated || d.Truncated
			all.WriteString(d.Text)
			if err := v.apply(d); err != nil {
				t.Fatal(err)
			}
			if err := v.check(refCleanRead(s[:written], lim.WithDefaults(), reads).all()); err != nil {
				t.Fatalf("after %+v: %v", d, err)
			}
		}
		for i, ch := range splitBy(s, plan) {
			b.Write(ch)
			written += len(ch)
			step(1+int(maxLines)%16+i%3, int(maxBytes))
		}
		step(1<<21, 0)
		if want := refCleanRead(s, lim.WithDefaults(), reads).text(); !truncated && trimLineBlanks(interpret(all.String())) != want {
			// A line's blanks returned before it ended stay with the
			// reader; the stored line has none (trimBlanks).
			t.Fatalf("deltas give %q, want %q", interpret(all.String()), want)
		}
	})
}

// FuzzTextRunEnd: the eight-bytes-at-a-time scan ends every run where the
// loop over single bytes does, from any start.
func FuzzTextRunEnd(f *testing.F) {
	f.Add([]byte("0123456789abcdef0123456789abcdef\r\n"), uint8(0))
	f.Add([]byte("col1\tcol2\tcol3 with a tab in the word\n"), uint8(1))
	f.Add([]byte("caf\xc3\xa9 au lait, ~tilde~ and DEL\x7f"), uint8(2))
	f.Add([]byte("\x1b[1mbold\x1b[0m plain text here"), uint8(5))
	f.Fuzz(func(t *testing.T, p []byte, start uint8) {
		j := int(start)
		if j > len(p) {
			j = len(p)
		}
		want := j
		for want < len(p) && classOf[p[want]] == clText {
			want++
		}
		if got := textRunEnd(p, j); got != want {
			t.Fatalf("textRunEnd(%q, %d) = %d, want %d", p, j, got, want)
		}
	})
}
