//go:build !linux

package localpty

import "github.com/ptyseam/ptyseam/core"

// ProbeForeground is Linux-only (it reads /proc); elsewhere it returns a
// CodeUnsupported error.
func (s *session) ProbeForeground() (core.ForegroundState, error) {
	return core.ForegroundState{}, core.Errorf(core.CodeUnsupported, "foreground probing needs Linux /proc")
}

// LeaderSwitches is Linux-only (it reads /proc); elsewhere it returns a
// CodeUnsupported error.
func (s *session) LeaderSwitches() (uint64, error) {
	return 0, core.Errorf(core.CodeUnsupported, "wake-up counts need Linux /proc")
}
