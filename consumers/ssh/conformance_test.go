package ssh

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/testharness"
)

// targetBackend puts a fixed target into every request, since the
// conformance suite builds requests before it knows the server.
type targetBackend struct {
	b *Backend
	t *Target
}

func (tb targetBackend) Type() string { return Type }

func (tb targetBackend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	req.Options = tb.t
	return tb.b.Spawn(ctx, req)
}

// childrenForAll builds the suite's children binary where the sshd test
// user can run it.
func childrenForAll(t *testing.T) string {
	bin := testharness.BuildChildren(t)
	for _, p := range []string{filepath.Dir(bin), bin} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return bin
}

// TestConformanceSSHD runs the testharness backend suite against a real
// sshd (one per sub-test, which also sweeps up what a remote close cannot
// reach, such as a setsid grandchild).
func TestConformanceSSHD(t *testing.T) {
	sshdtest.Require(t)
	bin := childrenForAll(t)
	testharness.TestBackend(t, testharness.BackendHarness{
		Children: bin,
		New: func(t *testing.T) core.Backend {
			srv := sshdtest.Start(t, sshdtest.Options{})
			return targetBackend{b: newBackend(nil), t: sshdTarget(t, srv, Auth{Password: srv.Password})}
		},
	})
}

// TestConformanceSSHTest runs the same suite against the in-process
// server.
func TestConformanceSSHTest(t *testing.T) {
	bin := testharness.BuildChildren(t)
	testharness.TestBackend(t, testharness.BackendHarness{
		Children: bin,
		New: func(t *testing.T) core.Backend {
			srv := newServer(t, sshtest.Config{Password: "pw"})
			return targetBackend{b: newBackend(nil), t: targetFor(t, srv, "test", Auth{Password: "pw"})}
		},
	})
}
