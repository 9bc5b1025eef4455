//go:build !linux

package pipebackend

import "syscall"

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
