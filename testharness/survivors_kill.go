package testharness

import (
	"fmt"
	"io"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// KillSurvivors kills (SIGKILL) the live processes whose environment holds
// marker, and waits up to wait for them to be gone. It returns the pids it
// found and those still alive afterwards.
func KillSurvivors(marker string, wait time.Duration) (found, alive []int) {
	found = Survivors(marker)
	for _, pid := range found {
		killProcess(pid)
	}
	deadline := time.Now().Add(wait)
	for {
		alive = alive[:0]
		for _, pid := range found {
			if testenv.ProcessAlive(pid, 0) {
				alive = append(alive, pid)
			}
		}
		if len(alive) == 0 || time.Now().After(deadline) {
			return found, alive
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// reportSurvivors writes the marked processes that outlived the tests to
// w, kills them, and reports whether there were any.
func reportSurvivors(w io.Writer, marker string) bool {
	found, alive := KillSurvivors(marker, 5*time.Second)
	if len(found) == 0 {
		return false
	}
	fmt.Fprintf(w, "processes outlived the tests: %v (killed", found)
	if len(alive) > 0 {
		fmt.Fprintf(w, "; still alive: %v", alive)
	}
	fmt.Fprintln(w, ")")
	return true
}
