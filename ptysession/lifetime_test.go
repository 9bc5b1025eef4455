package ptysession

import (
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// TestSendStateDroppedWhateverClosesTheSession closes a session through
// the service, not the facade (as a shutdown or another layer does): the
// service owns the session's lifetime (and its tail position), and the
// facade's send state goes with it.
func TestSendStateDroppedWhateverClosesTheSession(t *testing.T) {
	svc := seams[0].new(t).(*core.Service)
	s := New(svc, Options{})
	owner := core.NewOwner("lifetime")
	r := mustOpen(t, s, owner, OpenRequest{})
	if _, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "true"}); err != nil {
		t.Fatal(err)
	}
	if n := s.sendStateCount(); n != 1 {
		t.Fatalf("%d send states after a send, want 1", n)
	}
	if _, err := svc.Close(testCtx(t), owner, r.SessionID, "closed beside the facade"); err != nil {
		t.Fatal(err)
	}
	if n := s.sendStateCount(); n != 0 {
		t.Fatalf("%d send states after the service closed the session, want 0", n)
	}
}
