package testharness

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// WaitForegroundJob waits until a job, not the shell shellPID itself, is
// the foreground process group of the shell's terminal: a signal sent to
// the foreground now reaches the job. ps reports the terminal's
// foreground group (tpgid) on Linux and macOS alike. It fails the test
// when no job takes the terminal within testenv.HangBound.
func WaitForegroundJob(t testing.TB, shellPID int) {
	t.Helper()
	if shellPID <= 0 {
		t.Fatalf("no shell pid (%d) to watch", shellPID)
	}
	deadline := time.Now().Add(testenv.HangBound)
	for {
		out, err := exec.Command("ps", "-o", "tpgid=", "-p", strconv.Itoa(shellPID)).Output()
		if err != nil {
			t.Fatalf("ps -o tpgid= -p %d: %v", shellPID, err)
		}
		pgid, err := strconv.Atoi(strings.TrimSpace(string(out)))
		if err == nil && pgid > 0 && pgid != shellPID {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no job took the terminal of shell %d within %s (foreground group %q)", shellPID, testenv.HangBound, strings.TrimSpace(string(out)))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
