//go:build unix && !linux

package localpty

import "github.com/ptyseam/ptyseam/core"

// DescribeForeground needs Linux /proc; elsewhere it returns a
// CodeUnsupported error (see core.Prober.DescribeForeground).
func (s *session) DescribeForeground() (core.ForegroundProgram, bool, error) {
	return core.ForegroundProgram{}, false, core.Errorf(core.CodeUnsupported, "describing the foreground program needs Linux /proc")
}
