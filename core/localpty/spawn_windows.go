package localpty

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
)

// cgroupState is empty on Windows: there is no cgroup.
type cgroupState struct{}

// Spawn refuses every request on Windows with a CodeUnsupported error:
// this backend runs programs on Unix pseudo-terminals, and Windows has
// none (its pseudo console, ConPTY, is not implemented here). Programs
// that do not need a terminal run on Windows through the jobs layer's
// pipe backend (consumers/jobs/pipebackend).
func (b *Backend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	return nil, core.Errorf(core.CodeUnsupported,
		"the %s backend needs a Unix pseudo-terminal (Linux, macOS); on Windows run programs through the pipe backend", b.typ)
}

// Compile-time check of the interface the backend implements.
var _ core.Backend = (*Backend)(nil)
