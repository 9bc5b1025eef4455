package testharness

import (
	"os"

	"golang.org/x/sys/windows"
)

// processIdentity has no portable source on Windows.
func processIdentity(int) uint64 { return 0 }

// stillActive is GetExitCodeProcess's code of a running process.
const stillActive = 259

// processAlive reports whether pid names a running process.
func processAlive(pid int, _ uint64) bool {
	if pid <= 0 {
		return false
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer func() { _ = windows.CloseHandle(h) }()
	var code uint32
	return windows.GetExitCodeProcess(h, &code) == nil && code == stillActive
}

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
