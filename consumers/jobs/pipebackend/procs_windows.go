package pipebackend

import "syscall"

// procScanWorks reports that findMembers cannot see the session's
// processes on Windows: the Job Object holds them all (see procGroup).
const procScanWorks = false

// proc names one process.
type proc struct {
	pid   int
	start uint64
}

// findMembers finds nothing on Windows: teardown relies on the Job Object.
func findMembers(root int, marker string) []proc { return nil }

func (p proc) alive() bool { return false }

func (p proc) signal(sig syscall.Signal) {}

func (p proc) resume() {}
