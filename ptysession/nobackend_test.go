package ptysession_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
)

// TestNoBackendSaysHowToRegisterOne: opening on a target whose backend
// the service lacks is NO_BACKEND saying which backends there are and how
// to register the missing one.
func TestNoBackendSaysHowToRegisterOne(t *testing.T) {
	ctx := context.Background()
	s, err := ptysession.NewLocal(ptysession.Options{Targets: map[string]ptysession.Target{
		"box":  {Backend: "ssh"},
		"else": {Backend: "teleport"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Shutdown(ctx) }()
	owner := ptysession.NewOwner("t")
	_, err = s.Open(ctx, owner, ptysession.OpenRequest{Target: "box"})
	if ptysession.CodeOf(err) != core.CodeNoBackend {
		t.Fatalf("open: %v", err)
	}
	for _, want := range []string{`"ssh"`, "(it has: exec, shell", "core.Service.Register", "ssh.NewBackend(", "consumers/ssh"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("%q does not say %q", err, want)
		}
	}
	_, err = s.Open(ctx, owner, ptysession.OpenRequest{Target: "else"})
	if ptysession.CodeOf(err) != core.CodeNoBackend || !strings.Contains(err.Error(), "register one before opening") || strings.Contains(err.Error(), "NewBackend") {
		t.Fatalf("open on an unknown type: %v", err)
	}
}
