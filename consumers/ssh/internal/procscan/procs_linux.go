// Package procscan finds local processes by an environment variable they
// inherit and by ancestry, for the test servers' cleanup.
package procscan

import (
	"os"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// Find lists live processes other than this one that carry the
// environment entry NAME=VALUE (given as "NAME=VALUE") or descend from
// root (0: none).
func Find(entry string, root int) []int {
	pids, err := procfs.ListPIDs()
	if err != nil {
		return nil
	}
	parent := map[int]int{}
	var found []int
	seen := map[int]bool{}
	for _, pid := range pids {
		if pid == os.Getpid() {
			continue
		}
		st, err := procfs.ReadStat(pid, nil)
		if err != nil || st.State == 'Z' {
			continue
		}
		parent[pid] = st.PPID
		if procfs.HasEnv(pid, entry) {
			found = append(found, pid)
			seen[pid] = true
		}
	}
	if root <= 0 {
		return found
	}
	for pid := range parent {
		for p := pid; p > 1; p = parent[p] {
			if p == root {
				if !seen[pid] {
					found = append(found, pid)
					seen[pid] = true
				}
				break
			}
			if _, ok := parent[p]; !ok {
				break
			}
		}
	}
	return found
}
