package main

import (
	"os"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool { return procfs.Alive(pid, 0) }

// survivors lists live processes, other than this one, whose environment
// holds the entry marker ("NAME=VALUE").
func survivors(marker string) []int {
	all, _ := procfs.ListPIDs()
	var pids []int
	for _, pid := range all {
		if pid != os.Getpid() && procfs.HasEnv(pid, marker) && alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}
