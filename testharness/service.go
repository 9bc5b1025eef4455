package testharness

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// NewLocalService returns a core.Service with the local PTY backends
// ("shell" and "exec") registered, logging nowhere unless opts names a
// logger, and shut down when the test ends (a failed shutdown fails the
// test).
func NewLocalService(t testing.TB, opts core.Options) *core.Service {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	svc := core.New(opts)
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
		defer cancel()
		if err := svc.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return svc
}
