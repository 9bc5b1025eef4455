//go:build unix

package jobs

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/jobs/pipebackend"
	"github.com/ptyseam/ptyseam/core"
)

// With DisablePipe every job runs on the PTY backend: auto means pty, a
// launch asking for pipes is UNSUPPORTED and registers no pipe backend,
// and a configured pipe backend is a configuration error.
func TestDisablePipeRunsEveryJobOnAPTY(t *testing.T) {
	if _, err := (Config{DisablePipe: true, Backend: BackendPipe}).Validate(); !errors.Is(err, ErrInvalidConfig) {
		t.Fatalf("Backend pipe with DisablePipe: %v", err)
	}
	f := newFixture(t, Config{DisablePipe: true})
	info := f.launch(t, sh("echo hi"))
	if info.Backend != BackendPTY {
		t.Fatalf("auto launched on %q, want pty", info.Backend)
	}
	req := sh("echo hi")
	req.Backend = BackendPipe
	_, err := f.m.Launch(context.Background(), f.owner, req)
	if !errors.Is(err, core.ErrUnsupported) {
		t.Fatalf("a pipe launch: %v, want UNSUPPORTED", err)
	}
	if slices.Contains(f.svc.Backends(), pipebackend.Type) {
		t.Fatal("the refused pipe launch registered a pipe backend")
	}
}
