package testharness

import (
	"os"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// processIdentity has no portable source on Windows.
func processIdentity(int) uint64 { return 0 }

// processAlive reports whether pid names a running process.
func processAlive(pid int, _ uint64) bool { return procfs.ProcessRunning(pid) }

// processesRunning cannot find processes by executable without /proc.
func processesRunning(string) []int { return nil }

// killProcess terminates pid (TerminateProcess).
func killProcess(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
		_ = p.Release()
	}
}

// processesWithEnv cannot read other processes' environments without /proc.
func processesWithEnv(string) []int { return nil }
