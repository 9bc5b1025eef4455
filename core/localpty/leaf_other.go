//go:build !linux

package localpty

import (
	"context"
	"log/slog"
	"os/exec"
)

// Leaf is a cgroup v2 leaf on Linux; elsewhere there is none, and a nil
// *Leaf does nothing.
type Leaf struct{}

// StartInLeaf starts the command newCmd returns through StartChild; there
// are no cgroups outside Linux, so the leaf is always nil.
func StartInLeaf(newCmd func() *exec.Cmd, log *slog.Logger) (*exec.Cmd, *Leaf, error) {
	cmd := newCmd()
	return cmd, nil, StartChild(cmd)
}

// Kill does nothing outside Linux.
func (l *Leaf) Kill() error { return nil }

// Remove does nothing outside Linux.
func (l *Leaf) Remove(context.Context) error { return nil }
