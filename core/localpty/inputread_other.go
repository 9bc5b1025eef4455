//go:build unix && !linux

package localpty

import "github.com/ptyseam/ptyseam/core"

// InputRead needs Linux /proc; elsewhere it returns a CodeUnsupported
// error (see core.Prober.InputRead).
func (s *session) InputRead() (core.InputRead, error) {
	return core.InputRead{}, core.Errorf(core.CodeUnsupported, "counting what the program reads needs Linux /proc")
}
