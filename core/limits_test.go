package core_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// TestServiceWideSessionLimit: many owners (one per client) together may
// not hold more than MaxSessions, whatever each owner's own limit.
func TestServiceWideSessionLimit(t *testing.T) {
	svc := newService(t, core.Options{MaxSessionsPerOwner: 2, MaxSessions: 3})
	a, b := core.NewOwner("a"), core.NewOwner("b")
	first := spawnShell(t, svc, a)
	spawnShell(t, svc, a)
	spawnShell(t, svc, b)
	_, err := svc.Spawn(ctxT(t), b, core.SpawnRequest{Type: "shell"})
	if !errors.Is(err, core.ErrTooManySessions) || !strings.Contains(err.Error(), "all owners") {
		t.Fatalf("a fourth session across owners: %v, want TOO_MANY_SESSIONS naming the service-wide limit", err)
	}
	if _, err := svc.Close(ctxT(t), a, first.ID, "test"); err != nil {
		t.Fatal(err)
	}
	spawnShell(t, svc, b) // a close makes room
}
