package k8s

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote/remotetest"
	"github.com/ptyseam/ptyseam/testharness"
)

// targetBackend puts a fixed target into every request.
type targetBackend struct {
	b *Backend
	t *Target
}

func (tb targetBackend) Type() string { return Type }

func (tb targetBackend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	req.Options = tb.t
	return tb.b.Spawn(ctx, req)
}

// runPod creates a long-lived pod from tg for exec sessions, deleted when
// t ends, and returns its name.
func runPod(t testing.TB, b *Backend, tg *Target) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	name, err := b.createPod(ctx, tg, "host-"+t.Name())
	if name != "" {
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := b.deletePod(ctx, tg.namespace(), name); err != nil {
				t.Error(err)
			}
		})
	}
	if err != nil {
		t.Fatal(err)
	}
	return name
}

// childrenPod runs a pod with the children binary's folder mounted at
// its host path and returns an exec target in it and the binary's path.
func childrenPod(t *testing.T, b *Backend) (*Target, string) {
	bin := testharness.BuildChildren(t)
	tg := shellTarget(filepath.Dir(bin))
	return &Target{Pod: runPod(t, b, tg)}, bin
}

// TestConformanceExec runs the testharness backend suite with every
// session on an agent exec'd into one running pod.
func TestConformanceExec(t *testing.T) {
	b, _ := newBackend(t)
	tg, bin := childrenPod(t, b)
	testharness.TestBackend(t, testharness.BackendHarness{
		Children: bin,
		New:      func(t *testing.T) core.Backend { return targetBackend{b: b, t: tg} },
	})
}

// TestConformancePod runs the backend suite with every session in a new
// pod of its own.
func TestConformancePod(t *testing.T) {
	b, _ := newBackend(t)
	bin := testharness.BuildChildren(t)
	tg := shellTarget(filepath.Dir(bin))
	testharness.TestBackend(t, testharness.BackendHarness{
		Children: bin,
		New:      func(t *testing.T) core.Backend { return targetBackend{b: b, t: tg} },
	})
}

// TestTerminalsExec runs the seam conformance suite on a core.Service
// whose k8s sessions run on agents exec'd into one running pod.
func TestTerminalsExec(t *testing.T) {
	b, _ := newBackend(t)
	tg, bin := childrenPod(t, b)
	testharness.TestTerminals(t, testharness.TerminalsHarness{
		Children: bin,
		Request: func(argv []string) core.SpawnRequest {
			return core.SpawnRequest{Type: Type, Command: argv, Options: tg}
		},
		New: func(t *testing.T) core.Terminals { return remotetest.NewService(t, b) },
	})
}
