package testenv

import "github.com/ptyseam/ptyseam/internal/procfs"

// processesWithEnv lists processes whose environment holds entry
// ("NAME=VALUE").
func processesWithEnv(entry string) []int {
	all, _ := procfs.ListPIDs()
	var pids []int
	for _, pid := range all {
		if procfs.HasEnv(pid, entry) {
			pids = append(pids, pid)
		}
	}
	return pids
}
