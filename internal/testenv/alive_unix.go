//go:build unix

package testenv

import (
	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// alive reports whether the process pid that started at start runs (with
// start 0, any process with the pid).
func alive(pid int, start uint64) bool {
	if pid <= 0 || unix.Kill(pid, 0) == unix.ESRCH {
		return false
	}
	return start == 0 || procfs.Alive(pid, start)
}
