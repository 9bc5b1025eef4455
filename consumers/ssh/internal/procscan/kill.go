//go:build unix

package procscan

import (
	"syscall"
	"time"
)

// KillAll kills every process that Find(entry, root) names, except keep.
// It stops them all first, so that none forks, or is reparented and so
// lost from the tree, while they are being found; then it kills them and
// sweeps again until none is left (or it gives up after about a second).
func KillAll(entry string, root, keep int) {
	stopped := map[int]bool{}
	for i := 0; i < 100; i++ {
		fresh := 0
		for _, p := range Find(entry, root) {
			if p != keep && !stopped[p] {
				_ = syscall.Kill(p, syscall.SIGSTOP)
				stopped[p] = true
				fresh++
			}
		}
		if fresh == 0 {
			break
		}
	}
	for p := range stopped {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
	for i := 0; i < 100; i++ {
		left := 0
		for _, p := range Find(entry, root) {
			if p != keep {
				_ = syscall.Kill(p, syscall.SIGKILL)
				left++
			}
		}
		if left == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
