//go:build unix && !linux

package pipebackend

import (
	"errors"
	"syscall"
)

// procScanWorks reports that findMembers can see the session's processes;
// without /proc only the process group is used.
const procScanWorks = false

// proc names one process.
type proc struct {
	pid   int
	start uint64
}

// findMembers finds nothing without /proc: teardown relies on the process
// group.
func findMembers(root int, marker string) []proc { return nil }

func (p proc) alive() bool { return false }

func (p proc) signal(sig syscall.Signal) {}

func (p proc) resume() {}

// groupLive reports whether the process group pgid has a member (without
// /proc a zombie counts as one).
func groupLive(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
