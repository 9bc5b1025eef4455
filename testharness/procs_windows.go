package testharness

import "os"

// processIdentity has no portable source on Windows.
func processIdentity(int) uint64 { return 0 }

// processesRunning cannot find processes by executable without /proc.
func processesRunning(string) []int { return nil }

// killProcess terminates pid (TerminateProcess).
func killProcess(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
		_ = p.Release()
	}
}
