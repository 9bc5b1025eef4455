package ptysession

import (
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// TestCursorDroppedWhateverClosesTheSession closes a session through the
// service, not the facade (as a shutdown or another layer does): the
// service owns the session's lifetime, and the facade's tail cursor goes
// with it.
func TestCursorDroppedWhateverClosesTheSession(t *testing.T) {
	svc := seams[0].new(t).(*core.Service)
	s := New(svc, Options{})
	owner := core.NewOwner("lifetime")
	r := mustOpen(t, s, owner, OpenRequest{})
	if _, err := s.Tail(testCtx(t), owner, r.SessionID, 0); err != nil {
		t.Fatal(err)
	}
	if n := s.cursorCount(); n != 1 {
		t.Fatalf("%d cursors after a tail, want 1", n)
	}
	if _, err := svc.Close(testCtx(t), owner, r.SessionID, "closed beside the facade"); err != nil {
		t.Fatal(err)
	}
	if n := s.cursorCount(); n != 0 {
		t.Fatalf("%d cursors after the service closed the session, want 0", n)
	}
}
