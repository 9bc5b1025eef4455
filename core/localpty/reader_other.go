//go:build unix && !linux

package localpty

import "github.com/ptyseam/ptyseam/core"

// DescribeReader needs Linux /proc; elsewhere it returns a
// CodeUnsupported error (see core.Prober.DescribeReader).
func (s *session) DescribeReader() (core.TerminalReader, error) {
	return core.TerminalReader{}, core.Errorf(core.CodeUnsupported, "describing the terminal's reader needs Linux /proc")
}

// readersOf names no reader: a probe needs Linux /proc.
func readersOf(foreground) core.TerminalReader { return core.TerminalReader{} }
