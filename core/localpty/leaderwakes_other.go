//go:build unix && !linux

package localpty

import "github.com/ptyseam/ptyseam/core"

// readLocked is Linux-only (it reads /proc); elsewhere it returns a
// CodeUnsupported error.
func (l *leaderWakes) readLocked() (uint64, error) {
	return 0, core.Errorf(core.CodeUnsupported, "wake-up counts need Linux /proc")
}
