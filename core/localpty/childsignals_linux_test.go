package localpty

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// childSignalsHelperEnv marks the re-executed test binary that runs
// testChildSignalsInIgnoringProcess.
const childSignalsHelperEnv = "PTYSEAM_CHILD_SIGNALS_HELPER"

// TestChildrenGetDefaultSignalsWhenStartedIgnoringThem runs the backend in
// a process started with SIGHUP and SIGINT ignored (as nohup and `prog &`
// in a script do): the session's program must still die of Ctrl-C, and
// that process must still survive a SIGHUP.
func TestChildrenGetDefaultSignalsWhenStartedIgnoringThem(t *testing.T) {
	if os.Getenv(childSignalsHelperEnv) == "1" {
		testChildSignalsInIgnoringProcess(t)
		return
	}
	need(t, "bash", "sleep")
	// trap '' makes bash ignore the signals, and exec keeps them ignored.
	cmd := exec.Command("bash", "-c", `trap '' HUP INT; exec "$0" -test.run='^TestChildrenGetDefaultSignalsWhenStartedIgnoringThem$' -test.v`, os.Args[0])
	cmd.Env = append(os.Environ(), childSignalsHelperEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "helper: ctrl-c ended the program; sighup ignored here") {
		t.Fatalf("helper process: %v\n%s", err, out)
	}
}

// testChildSignalsInIgnoringProcess is the helper's side.
//
// The program is sleep itself, with no shell in front: the Ctrl-C must
// reach the process whose signal actions were checked. A shell that
// printed READY and then started sleep swallowed a Ctrl-C sent between the
// two (dash catches SIGINT under -c and defers it while it forks), then
// waited the whole sleep: under load the test hung for its 20 s bound.
// Spawn returns once sleep has been executed (exec.Cmd.Start waits for
// the exec), so its /proc status holds its own signal actions.
func testChildSignalsInIgnoringProcess(t *testing.T) {
	if !signal.Ignored(syscall.SIGINT) || !signal.Ignored(syscall.SIGHUP) {
		t.Fatalf("the helper was meant to start with SIGHUP and SIGINT ignored")
	}
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{
		Command: []string{"sleep", "30"},
	})
	out, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", tm.s.PID()))
	mustf(t, err, "read the program's status")
	m := regexp.MustCompile(`SigIgn:\s*([0-9a-f]+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no SigIgn line in %q", out)
	}
	mask, err := strconv.ParseUint(string(m[1]), 16, 64)
	mustf(t, err, "parse SigIgn")
	if hupInt := uint64(1<<(syscall.SIGHUP-1) | 1<<(syscall.SIGINT-1)); mask&hupInt != 0 {
		t.Fatalf("the program ignores signals %#x (SigIgn %s), want SIGHUP and SIGINT at their default", mask&hupInt, m[1])
	}
	tm.send("\x03")
	tm.waitEOF()
	if st := tm.s.ExitStatus(); st != core.ExitedWithSignal("SIGINT") {
		t.Fatalf("after Ctrl-C: %v, want killed by SIGINT", st)
	}
	// This process goes on ignoring SIGHUP: it is still here to say so.
	mustf(t, syscall.Kill(os.Getpid(), syscall.SIGHUP), "kill -HUP self")
	t.Log("helper: ctrl-c ended the program; sighup ignored here")
}
