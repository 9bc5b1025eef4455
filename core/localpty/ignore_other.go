//go:build unix && !linux

package localpty

import "syscall"

// groupIgnores is false outside Linux: reading a process's signal
// dispositions needs /proc (see ignore_linux.go).
func (s *session) groupIgnores(int, syscall.Signal) bool { return false }
