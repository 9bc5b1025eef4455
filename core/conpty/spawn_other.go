//go:build !windows

package conpty

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
)

// Spawn refuses every request with a CodeUnsupported error outside
// Windows: a pseudo console exists only there. On Unix use core/localpty.
func (b *Backend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	if _, err := b.argv(req); err != nil {
		return nil, err
	}
	return nil, core.Errorf(core.CodeUnsupported,
		"the ConPTY %s backend runs on Windows only; on Unix use core/localpty", b.typ)
}

// Compile-time check of the interface the backend implements.
var _ core.Backend = (*Backend)(nil)
