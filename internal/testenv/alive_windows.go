package testenv

import "github.com/ptyseam/ptyseam/internal/procfs"

// alive reports whether the process pid runs. Windows has no start time
// to tell a reused pid by (startTime is 0 there), so start is not used.
func alive(pid int, start uint64) bool { return procfs.ProcessRunning(pid) }
