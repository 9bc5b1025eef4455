//go:build unix && !linux

package testharness

import "golang.org/x/sys/unix"

// processIdentity has no portable source outside Linux.
func processIdentity(int) uint64 { return 0 }

// processesRunning cannot find processes by executable without /proc.
func processesRunning(string) []int { return nil }

func killProcess(pid int) { _ = unix.Kill(pid, unix.SIGKILL) }
