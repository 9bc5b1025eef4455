//go:build unix && !linux

package localpty

import "github.com/ptyseam/ptyseam/core"

// OutputEnd is Linux-only (see outputend_linux.go); elsewhere it returns
// a CodeUnsupported error.
func (s *session) OutputEnd() (end uint64, ok bool, err error) {
	return 0, false, core.Errorf(core.CodeUnsupported, "localpty: measuring the terminal's pending output needs Linux")
}
