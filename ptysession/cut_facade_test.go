package ptysession

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// A build's error in the middle of a long delta survives the cut, the
// markers name the ranges left out, and pty_read pages exactly those.
func TestSendCutKeepsErrorLines(t *testing.T) {
	forEachSeam(t, Options{Cut: CutKeepErrors, MaxResultBytes: 4096}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		waitPrompt(t, s, owner, r.SessionID)
		res := shellSend(t, s, owner, r.SessionID,
			"seq -f 'step %g' 1 999; echo 'main.go:12:5: undefined: frob'; seq -f 'step %g' 1001 2000")
		if gone := checkCutDelta(t, s, owner, r.SessionID, res.Delta, res.Truncated, res.Skipped, res.Cut, 4096); gone != 0 {
			t.Fatalf("%d lines counted as no longer retained, of 2,001", gone)
		}
		if !strings.Contains(res.Delta, "step 2000\n") || !strings.Contains(res.Delta, "\nmain.go:12:5: undefined: frob\n") {
			t.Fatalf("delta lost the error or the newest lines:\n%s", res.Delta)
		}
		if !strings.Contains(RenderSend(res), "pty_read pages them") {
			t.Fatalf("summary %q does not say what was cut", strings.SplitN(RenderSend(res), "\n", 2)[0])
		}
	})
}

func TestTailCutKeepsErrorLines(t *testing.T) {
	forEachSeam(t, Options{Cut: CutKeepErrors}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		waitPrompt(t, s, owner, r.SessionID)
		sendBeforeOutput(t, s, owner, r.SessionID, "seq 1 300; echo 'FAIL: TestParse'; seq 302 600")
		tr, err := s.Tail(testCtx(t), owner, r.SessionID, 40)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Lines > 40 || !strings.Contains(tr.Text, "\nFAIL: TestParse\n") || !strings.Contains(tr.Text, "600\n") {
			t.Fatalf("tail of 40 lines (%d) lost the failure or the newest lines:\n%s", tr.Lines, tr.Text)
		}
		if gone := checkCutDelta(t, s, owner, r.SessionID, tr.Text, tr.Truncated, tr.Skipped, tr.Cut, core.DefaultMaxOutputBytes); gone != 0 {
			t.Fatalf("%d lines counted as no longer retained, of 600", gone)
		}
	})
}

// A send whose output outgrows the session's scrollback (10,000 lines)
// says that the oldest lines are gone, and lists as cut only the ranges
// its text marks and pty_read can page.
func TestSendPastTheScrollbackSaysTheOldestAreGone(t *testing.T) {
	forEachSeam(t, Options{Cut: CutKeepErrors, MaxResultBytes: 4096}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		waitPrompt(t, s, owner, r.SessionID)
		res := shellSend(t, s, owner, r.SessionID, "seq -f 'step %g' 1 12000")
		gone := checkCutDelta(t, s, owner, r.SessionID, res.Delta, res.Truncated, res.Skipped, res.Cut, 4096)
		if gone < 2000 {
			t.Fatalf("%d lines counted as gone, want at least 2000 of 12,000 past a 10,000-line scrollback", gone)
		}
		summary := strings.SplitN(RenderSend(res), "\n", 2)[0]
		if !strings.Contains(summary, fmt.Sprintf("the oldest %d lines are gone", gone)) || !strings.Contains(res.Delta, "step 12000\n") {
			t.Fatalf("summary %q, delta ending %q", summary, res.Delta[max(0, len(res.Delta)-40):])
		}
		pg, err := s.Read(testCtx(t), owner, r.SessionID, ReadRequest{Start: 0, Count: 3})
		if err != nil {
			t.Fatal(err)
		}
		if text := RenderRead(pg); pg.Lines != 0 || !strings.Contains(text, fmt.Sprintf("start at %d for the oldest", pg.First)) {
			t.Fatalf("read of lines gone: %q", text)
		}
	})
}

// checkCutDelta checks a cut result against the session's scrollback:
// every range left out has its marker and holds no error line, and the
// skipped count is their sum plus the lines no longer retained, which it
// returns.
func checkCutDelta(t *testing.T, s *Sessions, owner *core.Owner, id core.SessionID, text string, truncated bool, skipped int64, cut []LineRange, maxBytes int) (gone int64) {
	t.Helper()
	if !truncated || len(cut) == 0 || len(text) > maxBytes {
		t.Fatalf("truncated %v, cut %v, %d bytes (max %d)", truncated, cut, len(text), maxBytes)
	}
	var sum int64
	for _, r := range cut {
		sum += r.Len()
		if !strings.Contains(text, cutMarker(r)+"\n") {
			t.Errorf("no marker %q", cutMarker(r))
		}
		for from := r.From; from <= r.To; {
			pg, err := s.Read(testCtx(t), owner, id, ReadRequest{Start: from, Count: int(r.To - from + 1)})
			if err != nil || pg.Start != from || pg.End <= from {
				t.Fatalf("read of %v from %d: %+v %v", r, from, pg, err)
			}
			for _, l := range strings.Split(strings.TrimSuffix(pg.Text, "\n"), "\n") {
				if core.LooksLikeError(l) {
					t.Errorf("range %v left out the error line %q", r, l)
				}
			}
			from = pg.End
		}
	}
	if skipped < sum {
		t.Fatalf("skipped %d, ranges hold %d", skipped, sum)
	}
	return skipped - sum
}

// cutMarker is the marker line a cut writes for r (core.CutLines's
// documented format).
func cutMarker(r LineRange) string {
	if r.From == r.To {
		return fmt.Sprintf("[... line %d cut ...]", r.From)
	}
	return fmt.Sprintf("[... lines %d-%d cut (%d lines) ...]", r.From, r.To, r.Len())
}

// A line longer than the result's bound (a JSON document on one line, as
// an API answers curl) was left out whole: the result held a marker in
// its place and nothing of the document. Its head is kept, ended by what
// was cut, and the summary says so.
func TestSendKeepsTheHeadOfALongLine(t *testing.T) {
	forEachSeam(t, Options{Cut: CutKeepErrors, MaxResultBytes: 4096}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		waitPrompt(t, s, owner, r.SessionID)
		res := shellSend(t, s, owner, r.SessionID, `printf '{"items": ['; for i in $(seq 1 500); do printf '{"id": %d}, ' $i; done; echo ']}'`)
		if !res.Truncated || len(res.Delta) > 4096 || !strings.Contains(res.Delta, "\n{\"items\": [{\"id\": 1}, {\"id\": 2}") ||
			!strings.Contains(res.Delta, " bytes of line ") {
			t.Fatalf("truncated %v, %d bytes:\n%s", res.Truncated, len(res.Delta), res.Delta)
		}
		if head := strings.SplitN(RenderSend(res), "\n", 2)[0]; !strings.Contains(head, "part of a long line cut") {
			t.Fatalf("summary %q does not say a line was cut", head)
		}
		// A read of the line, longer than a page, says that it shows the
		// line's end.
		i := strings.Index(res.Delta, " bytes of line ")
		var line int64
		fmt.Sscanf(res.Delta[i:], " bytes of line %d cut", &line)
		pg, err := s.Read(testCtx(t), owner, r.SessionID, ReadRequest{Start: line, Count: 1})
		if err != nil || pg.LineCut == 0 || !strings.HasSuffix(pg.Text, "]}\n") ||
			!strings.Contains(RenderRead(pg), fmt.Sprintf("; line %d is %d bytes, longer than a page: its first %d cut, its end shown", line, pg.LineCut+int64(len(pg.Text)-1), pg.LineCut)) {
			t.Fatalf("read of line %d: cut %d (%v)\n%.300s", line, pg.LineCut, err, RenderRead(pg))
		}
	})
}

// A loop printing one line thousands of times filled the result with
// copies of it; the run is kept once with a marker, pty_read pages the
// copies, and the lines after it are all there.
func TestSendFoldsARepeatedLine(t *testing.T) {
	forEachSeam(t, Options{Cut: CutKeepErrors, MaxResultBytes: 4096}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		waitPrompt(t, s, owner, r.SessionID)
		res := shellSend(t, s, owner, r.SessionID, "for i in $(seq 3000); do echo waiting for db; done; echo ready; seq 3")
		if len(res.Cut) != 1 || res.Cut[0].Len() != 2999 {
			t.Fatalf("cut %v:\n%s", res.Cut, res.Delta)
		}
		c := res.Cut[0]
		want := fmt.Sprintf("\nwaiting for db\n[... lines %d-%d repeat the line above (2999 lines) ...]\nready\n1\n2\n3\n", c.From, c.To)
		if !strings.Contains(res.Delta, want) || len(res.Delta) > 1024 {
			t.Fatalf("%d bytes, no %q in:\n%s", len(res.Delta), want, res.Delta)
		}
		pg, err := s.Read(testCtx(t), owner, r.SessionID, ReadRequest{Start: c.To - 1, Count: 3})
		if err != nil || pg.Text != "waiting for db\nwaiting for db\nready\n" {
			t.Fatalf("read of the run's end: %q %v", pg.Text, err)
		}
	})
}
