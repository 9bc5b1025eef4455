//go:build unix && !linux

package pipebackend

import (
	"errors"
	"syscall"
)

// zombieOrGone reports that pid is not running; without /proc a zombie
// cannot be told from a live process, so it reports only a gone one.
func (p proc) zombieOrGone() bool {
	return errors.Is(syscall.Kill(p.pid, 0), syscall.ESRCH)
}
