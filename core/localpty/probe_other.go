//go:build !linux

package localpty

import "github.com/ptyseam/ptyseam/core"

// probe is Linux-only (it reads /proc); elsewhere it returns a
// CodeUnsupported error.
func (s *session) probe() (foreground, error) {
	return foreground{}, core.Errorf(core.CodeUnsupported, "foreground probing needs Linux /proc")
}

// leaderSwitches is Linux-only (it reads /proc); elsewhere it returns a
// CodeUnsupported error.
func (s *session) leaderSwitches() (uint64, error) {
	return 0, core.Errorf(core.CodeUnsupported, "wake-up counts need Linux /proc")
}

func leaderStatusPath(int) string { return "" }
