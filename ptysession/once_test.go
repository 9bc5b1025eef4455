package ptysession

import (
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// A send's delta is not returned again by the next tail, for the facade
// and for pty_tail; a page read by line number still re-reads it.
func TestSendMovesTailPosition(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		ctx := testCtx(t)
		r := shellOpen(t, s, owner, OpenRequest{Command: "echo opened"})
		if tr, err := s.Tail(ctx, owner, r.SessionID, 0); err != nil || strings.Contains(tr.Text, "opened") {
			t.Fatalf("tail after open %+v %v: the initial output came again", tr, err)
		}
		res := shellSend(t, s, owner, r.SessionID, "echo paid-$((6*7))")
		if !strings.Contains(res.Delta, "paid-42\n") {
			t.Fatalf("delta %q", res.Delta)
		}
		tr, err := s.Tail(ctx, owner, r.SessionID, 0)
		if err != nil || strings.Contains(tr.Text, "paid-42") {
			t.Fatalf("tail after send %+v %v: the send's output came again", tr, err)
		}
		pg, err := s.Read(ctx, owner, r.SessionID, ReadRequest{Newest: true, Count: 3})
		if err != nil || !strings.Contains(pg.Text, "paid-42\n") {
			t.Fatalf("re-read by page %+v %v", pg, err)
		}

		// Output printed after the send settled is the next tail's.
		sendBeforeOutput(t, s, owner, r.SessionID, "echo later")
		tr, err = s.Tail(ctx, owner, r.SessionID, 0)
		text := tr.Text
		if err != nil || strings.Count(text, "later\n") != 1 || strings.Contains(text, "echo later") {
			t.Fatalf("tail after a send that returned early: %q", text)
		}
	})
}
