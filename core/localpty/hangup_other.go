//go:build unix && !linux

package localpty

import "context"

// hangupMayBeHeld is false outside Linux: watching the shell's read of
// the terminal needs /proc (see hangup_linux.go).
func (s *session) hangupMayBeHeld(int) bool { return false }

// followHangup does nothing outside Linux (see hangup_linux.go).
func (s *session) followHangup(context.Context, int) {}
