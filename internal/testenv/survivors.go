package testenv

import (
	"os"
	"slices"
)

// Survivors lists live processes (zombies count as gone), other than this
// one and except, whose environment holds marker ("NAME=VALUE"). It works
// where /proc does (Linux) and finds nothing elsewhere.
func Survivors(marker string, except ...int) []int {
	var pids []int
	for _, pid := range processesWithEnv(marker) {
		if pid != os.Getpid() && !slices.Contains(except, pid) && ProcessAlive(pid, 0) {
			pids = append(pids, pid)
		}
	}
	return pids
}
