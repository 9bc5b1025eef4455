//go:build !windows

package conpty

import (
	"context"
	"errors"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

func TestSpawnIsUnsupportedOutsideWindows(t *testing.T) {
	_, err := NewExec(ExecOptions{}).Spawn(context.Background(), core.BackendRequest{Command: []string{"cmd.exe"}, Size: core.DefaultSize})
	if !errors.Is(err, core.ErrUnsupported) {
		t.Fatalf("err = %v, want UNSUPPORTED", err)
	}
}
