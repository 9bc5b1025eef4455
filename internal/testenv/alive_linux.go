package testenv

import (
	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// ProcessAlive reports whether pid is a process that has not exited (a
// zombie has) and, when start is not 0, the one that started at start
// (clock ticks since boot): a later process reusing the pid is not.
func ProcessAlive(pid int, start uint64) bool {
	if pid <= 0 || unix.Kill(pid, 0) == unix.ESRCH {
		return false
	}
	return procfs.Alive(pid, start)
}
