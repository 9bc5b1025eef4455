//go:build unix && !linux

package localpty

import "github.com/ptyseam/ptyseam/core"

// probe is Linux-only (it reads /proc); elsewhere it returns a
// CodeUnsupported error.
func (s *session) probe() (foreground, error) {
	return foreground{}, core.Errorf(core.CodeUnsupported, "foreground probing needs Linux /proc")
}
