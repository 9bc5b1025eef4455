package localpty

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// fgCommand returns the command name of the foreground group's leader.
func fgCommand(pgid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pgid) + "/comm")
	return strings.TrimSpace(string(b))
}

// runningInForeground probes until prog (after its exec: a signal sent
// before it would hit the shell's forked child) leads the foreground group.
func runningInForeground(t *testing.T, s *session, prog string) foreground {
	t.Helper()
	return probeUntil(t, s, prog+" in the foreground", func(st foreground) bool {
		return !st.Leader && fgCommand(st.PGID) == prog
	})
}

// probeUntil probes until cond holds and returns that state.
func probeUntil(t *testing.T, s *session, what string, cond func(foreground) bool) foreground {
	t.Helper()
	var st foreground
	eventually(t, what, func() bool {
		var err error
		st, err = s.probe()
		mustf(t, err, "probe")
		return cond(st)
	})
	return st
}

func TestProbeShellPromptSleepCat(t *testing.T) {
	need(t, "bash", "sleep", "cat")
	tm := startTerm(t, NewShell(ShellOptions{Options: shortOpts(false)}), core.BackendRequest{})
	tm.waitFor("133;B\a")

	// bash at its prompt: its own group, blocked in pselect6 on the tty.
	st := probeUntil(t, tm.s, "bash reading at its prompt", func(st foreground) bool { return st.ReadingInput })
	if !st.Leader || st.PGID != tm.s.PID() {
		t.Fatalf("at the prompt: %+v, want the leader's group %d", st, tm.s.PID())
	}

	// sleep in the foreground: another group, not reading.
	tm.send("sleep 5\r")
	st = runningInForeground(t, tm.s, "sleep")
	if st.ReadingInput || st.PGID == tm.s.PID() {
		t.Fatalf("sleep in the foreground: %+v", st)
	}
	res, err := tm.s.Signal(context.Background(), core.SignalRequest{Signal: core.SIGINT})
	mustf(t, err, "interrupt sleep")
	if !res.Delivered || res.TargetPGID != st.PGID || res.Leader || res.Method != "pgid" {
		t.Fatalf("signal result %+v, want delivery to group %d", res, st.PGID)
	}
	tm.waitFor("133;D;130;")

	// cat in the foreground: another group, blocked in read(0).
	tm.send("cat\r")
	st = probeUntil(t, tm.s, "cat reading", func(st foreground) bool { return !st.Leader && st.ReadingInput })
	before := st.Switches
	tm.send("ping\r")
	tm.waitForN("ping\r\n", 2)
	st = probeUntil(t, tm.s, "cat reading again", func(st foreground) bool { return st.ReadingInput })
	if st.Switches <= before {
		t.Fatalf("switches %d after a line, %d before: the wake-up was not counted", st.Switches, before)
	}
	tm.send("\x04")
	probeUntil(t, tm.s, "bash back at its prompt", func(st foreground) bool { return st.Leader && st.ReadingInput })
}

func TestProbePythonREPL(t *testing.T) {
	need(t, "python3")
	t.Run("in-shell", func(t *testing.T) {
		tm := startTerm(t, NewShell(ShellOptions{Options: shortOpts(false)}), core.BackendRequest{})
		tm.waitFor("133;B\a")
		tm.send("python3 -q\r")
		tm.waitFor(">>> ")
		probeUntil(t, tm.s, "python reading at >>>", func(st foreground) bool { return !st.Leader && st.ReadingInput })
		tm.send("import time; time.sleep(5)\r")
		probeUntil(t, tm.s, "python busy", func(st foreground) bool { return !st.ReadingInput })
		_, err := tm.s.Signal(context.Background(), core.SignalRequest{Signal: core.SIGINT})
		mustf(t, err, "interrupt python")
		tm.waitFor("KeyboardInterrupt")
		probeUntil(t, tm.s, "python reading again", func(st foreground) bool { return !st.Leader && st.ReadingInput })
	})
	t.Run("exec", func(t *testing.T) {
		tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{Command: []string{"python3", "-q", "-i"}})
		tm.waitFor(">>> ")
		probeUntil(t, tm.s, "python reading as the top-level process", func(st foreground) bool { return st.Leader && st.ReadingInput })
	})
}

func TestProbeAfterExit(t *testing.T) {
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{Command: []string{"true"}})
	tm.waitEOF()
	if _, err := tm.s.probe(); !errors.Is(err, core.ErrSessionExited) {
		t.Fatalf("probe after exit: %v, want SESSION_EXITED", err)
	}
	if _, err := tm.s.Signal(context.Background(), core.SignalRequest{Signal: core.SIGINT}); !errors.Is(err, core.ErrSessionExited) {
		t.Fatalf("signal after exit: %v, want SESSION_EXITED", err)
	}
}

func TestSignalShellSurvivesAndKillRefused(t *testing.T) {
	tm := startTerm(t, NewShell(ShellOptions{Options: shortOpts(false)}), core.BackendRequest{})
	tm.waitFor("133;B\a")
	tm.send("sleep 100\r")
	st := runningInForeground(t, tm.s, "sleep")
	res, err := tm.s.Signal(context.Background(), core.SignalRequest{Signal: core.SIGINT})
	mustf(t, err, "SIGINT")
	if !res.Delivered || res.TargetPGID != st.PGID || res.Leader {
		t.Fatalf("result %+v", res)
	}
	tm.waitFor("133;D;130;")
	tm.send("echo still-here\r")
	tm.waitFor("\rstill-here\r\n")
	if st := tm.s.ExitStatus(); st != core.Running {
		t.Fatalf("shell status %v after SIGINT to its job", st)
	}

	// SIGKILL to the shell's own group is refused without AllowLeader.
	probeUntil(t, tm.s, "bash at its prompt", func(st foreground) bool { return st.Leader })
	res, err = tm.s.Signal(context.Background(), core.SignalRequest{Signal: core.SIGKILL})
	if !errors.Is(err, core.ErrSignalRefused) || res.Delivered {
		t.Fatalf("SIGKILL to the shell: %+v, %v; want SIGNAL_REFUSED", res, err)
	}
	if st := tm.s.ExitStatus(); st != core.Running {
		t.Fatalf("shell status %v after a refused SIGKILL", st)
	}
	// Other signals to the leader's group are delivered (bash ignores
	// SIGINT at its prompt).
	res, err = tm.s.Signal(context.Background(), core.SignalRequest{Signal: core.SIGINT})
	if err != nil || !res.Delivered || !res.Leader {
		t.Fatalf("SIGINT at the prompt: %+v, %v", res, err)
	}
	res, err = tm.s.Signal(context.Background(), core.SignalRequest{Signal: core.SIGKILL, AllowLeader: true})
	if err != nil || !res.Delivered || !res.Leader || res.TargetPGID != tm.s.PID() {
		t.Fatalf("SIGKILL with AllowLeader: %+v, %v", res, err)
	}
	tm.waitEOF()
	if st := tm.s.ExitStatus(); st != core.ExitedWithSignal("SIGKILL") {
		t.Fatalf("status %v, want killed by SIGKILL", st)
	}
	if _, err := tm.s.Signal(context.Background(), core.SignalRequest{Signal: "SIGFOO"}); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("unknown signal: %v", err)
	}
}
