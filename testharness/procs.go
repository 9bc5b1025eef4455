package testharness

import "github.com/ptyseam/ptyseam/internal/testenv"

// ProcessAlive reports whether pid names a live local process. A zombie
// (exited, not yet reaped by its parent) counts as gone on Linux, where
// /proc tells them apart; elsewhere it counts as alive.
func ProcessAlive(pid int) bool { return testenv.ProcessAlive(pid, 0) }

// trackedProcess is a pid plus what tells it from a later reuse of the pid.
type trackedProcess struct {
	pid      int
	identity uint64
}

func track(pid int) trackedProcess {
	return trackedProcess{pid: pid, identity: processIdentity(pid)}
}

func (p trackedProcess) alive() bool { return testenv.ProcessAlive(p.pid, p.identity) }
