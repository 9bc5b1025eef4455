package testenv

import "github.com/ptyseam/ptyseam/internal/procfs"

// ProcessAlive reports whether the process pid runs. Windows has no start
// time to tell a reused pid by, so start is not used.
func ProcessAlive(pid int, _ uint64) bool { return procfs.ProcessRunning(pid) }
