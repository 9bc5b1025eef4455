//go:build linux

package testharness

import (
	"os"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/internal/procfs"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// processIdentity returns what tells this process from a later one that
// reuses its pid (its start time).
func processIdentity(pid int) uint64 {
	st, _ := procfs.ReadStat(pid, nil)
	return st.StartTime
}

// processesRunning lists live processes whose executable is path.
func processesRunning(path string) []int {
	all, _ := procfs.ListPIDs()
	var pids []int
	for _, pid := range all {
		if pid == os.Getpid() {
			continue
		}
		exe, err := os.Readlink(procfs.Path(pid, "exe"))
		if err != nil || strings.TrimSuffix(exe, " (deleted)") != path {
			continue
		}
		if testenv.ProcessAlive(pid, 0) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func killProcess(pid int) { _ = unix.Kill(pid, unix.SIGKILL) }
