//go:build unix

package jobs

import (
	"errors"
	"syscall"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// goneOrZombie reports that pid no longer runs (a zombie counts as gone).
func goneOrZombie(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	return !procfs.Alive(pid, 0)
}
