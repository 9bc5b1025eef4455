package scrollback

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// view is what a reader rebuilds from deltas: lines by absolute number,
// with placeholders for skipped lines and a mark on lines whose text a
// truncated delta may have cut.
type view struct {
	lines   []string
	skipped []bool
	inexact []bool
	open    bool // the last line is unterminated
}

func (v *view) add(s string, skipped bool) {
	v.lines = append(v.lines, s)
	v.skipped = append(v.skipped, skipped)
	v.inexact = append(v.inexact, false)
}

// apply reads one delta, interpreting "\r" as "replace the current line".
func (v *view) apply(d Delta) error {
	t := d.Text
	if d.Truncated && v.open && strings.HasPrefix(t, "\n") {
		// The rest of the open line was lost.
		v.inexact[len(v.lines)-1] = true
		v.open = false
		t = t[1:]
	}
	if d.Skipped < 0 {
		return fmt.Errorf("negative Skipped %d", d.Skipped)
	}
	if d.Skipped > 0 {
		if v.open {
			return fmt.Errorf("lines skipped after an open line without closing it: %+v", d)
		}
		for range d.Skipped {
			v.add("", true)
		}
	}
	if d.Skipped == 0 && !d.Truncated && d.Text == "" {
		return nil
	}
	touched := -1
	pieces := strings.Count(strings.TrimSuffix(t, "\n"), "\n") + 1
	for len(t) > 0 {
		if t[0] == '\r' {
			if !v.open {
				return fmt.Errorf("\\r without an open line: %q", d.Text)
			}
			v.lines[len(v.lines)-1] = ""
			t = t[1:]
			continue
		}
		seg, rest, found := strings.Cut(t, "\n")
		if strings.ContainsRune(seg, '\r') {
			return fmt.Errorf("\\r inside a line: %q", d.Text)
		}
		if v.open {
			v.lines[len(v.lines)-1] += seg
		} else {
			v.add(seg, false)
			v.open = true
		}
		if touched < 0 {
			touched = len(v.lines) - 1
		}
		if found {
			v.open = false
		}
		t = rest
	}
	if d.Truncated && pieces == 1 && touched >= 0 {
		v.inexact[touched] = true // a lone line may have been cut to its tail
	}
	return nil
}

// check compares the view with the reference lines.
func (v *view) check(want []string) error {
	got := v.lines
	if v.open && len(got) > 0 && got[len(got)-1] == "" {
		got = got[:len(got)-1]
	}
	if len(got) != len(want) {
		return fmt.Errorf("view has %d lines, reference %d", len(got), len(want))
	}
	for i := range got {
		if v.skipped[i] {
			continue
		}
		g := got[i]
		if i < len(v.lines)-1 || !v.open {
			// A line returned partly with blanks the stored line lost
			// (trimBlanks) continues with its newline alone.
			g = strings.TrimRight(g, " ")
		}
		if g != want[i] && !v.inexact[i] {
			return fmt.Errorf("line %d: %q, want %q", i, g, want[i])
		}
	}
	return nil
}

// trimLineBlanks drops the blanks before each newline.
func trimLineBlanks(s string) string {
	lines := strings.Split(s, "\n")
	for i := range lines[:len(lines)-1] {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.Join(lines, "\n")
}

// interpret applies "\r" (replace the current line) to concatenated deltas.
func interpret(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '\r' {
			if j := strings.LastIndexByte(string(b), '\n'); j >= 0 {
				b = b[:j+1]
			} else {
				b = b[:0]
			}
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}

// TestCursorProperty is the key invariant: random outputs, chunkings and
// tail sizes interleaved with writes. Without truncation the deltas
// concatenate to the cleaned text exactly; with it, every line is either
// delivered intact, or counted as skipped, or marked cut by its delta.
func TestCursorProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	truncatedRuns := 0
	for trial := range 300 {
		s := randStream(r, 1+r.IntN(150))
		lim := Limits{MaxLines: 1 << 20, MaxBytes: 1 << 26, MaxLineBytes: 1 << 16}
		if r.IntN(2) == 0 {
			lim = Limits{MaxLines: 2 + r.IntN(30), MaxBytes: 40 + r.IntN(2000), MaxLineBytes: 8 + r.IntN(200)}
		}
		lim = lim.WithDefaults()
		b := New(lim)
		read := func(req PageRequest) (Page, error) { return b.Page(req, 0), nil }
		var c, c2 Cursor // c2 reads through Since and must agree
		var v view
		var all strings.Builder
		truncated := false
		written := 0
		var reads []int
		next := func(maxLines, maxBytes int) {
			t.Helper()
			reads = append(reads, written)
			d, err := c.Next(read, maxLines, maxBytes)
			if err != nil {
				t.Fatal(err)
			}
			if d2 := b.Since(&c2, maxLines, maxBytes); d2 != d || c2 != c {
				t.Fatalf("trial %d: Since gave %+v at %+v, Next %+v at %+v", trial, d2, c2, d, c)
			}
			truncated = truncated || d.Truncated
			all.WriteString(d.Text)
			if err := v.apply(d); err != nil {
				t.Fatalf("trial %d: %v\nstream %q", trial, err, s[:written])
			}
			ref := refCleanRead(s[:written], lim, reads)
			if err := v.check(ref.all()); err != nil {
				t.Fatalf("trial %d lim %+v reads %v after delta %+v (maxLines %d maxBytes %d): %v\nstream %q", trial, lim, reads, d, maxLines, maxBytes, err, s[:written])
			}
		}
		for _, ch := range randChunks(r, s) {
			b.Write(ch)
			written += len(ch)
			if r.IntN(3) == 0 {
				maxBytes := 0
				if r.IntN(2) == 0 {
					maxBytes = 1 + r.IntN(200)
				}
				next(1+r.IntN(20), maxBytes)
			}
		}
		next(lim.MaxLines+1, 0)
		ref := refCleanRead(s, lim, reads)
		if !truncated {
			if got := trimLineBlanks(interpret(all.String())); got != ref.text() {
				t.Fatalf("trial %d: deltas give %q, want %q", trial, got, ref.text())
			}
		} else {
			truncatedRuns++
		}
	}
	if truncatedRuns == 0 || truncatedRuns == 300 {
		t.Fatalf("%d of 300 runs truncated: the test does not cover both cases", truncatedRuns)
	}
}
