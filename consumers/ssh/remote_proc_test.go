package ssh

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/internal/procfs"
)

// waitRemoteRuns waits until one of srv's processes has cmdline (its
// arguments each ended by a NUL): a command sent to a shell has started.
// It fails after waitLimit.
func waitRemoteRuns(t *testing.T, srv *sshdtest.Server, cmdline string) {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(20 * time.Millisecond) {
		if childRuns(srv.Remaining(), cmdline) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q never ran on the server within %v; its processes: %v", cmdline, waitLimit, srv.Remaining())
		}
	}
}

// childRuns reports whether one of pids has cmdline.
func childRuns(pids []int, cmdline string) bool {
	for _, pid := range pids {
		if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); string(b) == cmdline {
			return true
		}
	}
	return false
}

// waitDescendantRuns waits until a process descending from this test
// process has cmdline (for the in-process test servers, whose shells are
// this process's children); it fails after waitLimit.
func waitDescendantRuns(t *testing.T, cmdline string) {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(20 * time.Millisecond) {
		pids, _ := procfs.ListPIDs()
		var mine []int
		for _, pid := range pids {
			if descends(pid, os.Getpid()) {
				mine = append(mine, pid)
			}
		}
		if childRuns(mine, cmdline) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q never ran within %v; this process's descendants: %v", cmdline, waitLimit, mine)
		}
	}
}

// descends reports whether pid's parent chain reaches ancestor.
func descends(pid, ancestor int) bool {
	buf := make([]byte, 0, 512)
	for range 32 {
		st, err := procfs.ReadStat(pid, buf)
		if err != nil || st.PPID <= 1 {
			return false
		}
		if st.PPID == ancestor {
			return true
		}
		pid = st.PPID
	}
	return false
}
