package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// hideProcEntries marks the server not dumpable: its /proc/PID/environ
// (which still holds the environment it was started with, the token's
// variable included), mem, maps and fd then belong to root, and no process
// of the server's user (a session's shell) can read them or attach to the
// server. The programs it starts are dumpable again (execve resets the
// flag).
func hideProcEntries() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return os.NewSyscallError("prctl(PR_SET_DUMPABLE)", err)
	}
	return nil
}
