//go:build !linux

package localpty

import (
	"context"
	"log/slog"
)

// BecomeSubreaper does nothing outside Linux, which has no child subreaper:
// there a session's escapees are not found (see docs/localpty.md).
func BecomeSubreaper(context.Context, *slog.Logger) error { return nil }

// ReapStaleCgroups does nothing outside Linux, which has no cgroups; it
// returns 0 and nil.
func ReapStaleCgroups(context.Context, *slog.Logger) (int, error) { return 0, nil }
