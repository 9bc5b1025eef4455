//go:build unix && !linux

package testharness

import "golang.org/x/sys/unix"

// processIdentity has no portable source outside Linux.
func processIdentity(int) uint64 { return 0 }

// processAlive reports whether pid names a process; without /proc a
// zombie counts as alive.
func processAlive(pid int, _ uint64) bool {
	return pid > 0 && unix.Kill(pid, 0) != unix.ESRCH
}

// processesRunning cannot find processes by executable without /proc.
func processesRunning(string) []int { return nil }

func killProcess(pid int) { _ = unix.Kill(pid, unix.SIGKILL) }

// processesWithEnv cannot read other processes' environments without /proc.
func processesWithEnv(string) []int { return nil }
