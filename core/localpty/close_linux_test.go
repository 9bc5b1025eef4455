package localpty

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/procfs"
)

// closeCase starts a program that leaves hard-to-kill processes behind and
// prints "pids: <pid> <pid> ... end" once they exist.
type closeCase struct {
	name  string
	shell string
	want  int // how many pids it prints
}

var closeCases = []closeCase{
	{
		// setsid + double fork: the sleep is in another session and its
		// parent is gone (re-parented to init).
		name:  "setsid-double-fork",
		shell: `setsid sh -c 'sleep 100 & echo "pids: $! end"' ; sleep 100`,
		want:  1,
	},
	{
		name:  "ignores-TERM-and-HUP",
		shell: `sh -c 'trap "" TERM HUP INT; echo "pids: $$ end"; while :; do sleep 1; done' & sleep 100`,
		want:  1,
	},
	{
		name: "stopped-itself",
		// In its own session, so the terminal's hangup (SIGHUP +
		// SIGCONT to the foreground group) does not reach it: only
		// SIGCONT after SIGTERM (or SIGKILL) ends it.
		shell: `setsid sh -c 'echo "pids: $$ end"; kill -STOP $$; sleep 100' & sleep 100`,
		want:  1,
	},
	{
		// Ignores SIGTERM/SIGHUP and keeps forking children that do
		// too: the teardown has to kill newcomers as well.
		name:  "forks-while-dying",
		shell: `sh -c 'trap "" TERM HUP; echo "pids: $$ end"; while :; do sleep 100 & sleep 0.02; done' & sleep 100`,
		want:  1,
	},
	{
		name:  "100-children",
		shell: `i=0; p=""; while [ $i -lt 100 ]; do sleep 100 & p="$p $!"; i=$((i+1)); done; echo "pids:$p end"; wait`,
		want:  100,
	},
}

var pidsLine = regexp.MustCompile(`pids:((?: \d+)+) end`)

func TestCloseKillsEverything(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			if !mode.disableCgroup {
				requireCgroup(t)
			}
			for _, c := range closeCases {
				t.Run(c.name, func(t *testing.T) {
					b := NewExec(ExecOptions{Options: shortOpts(mode.disableCgroup)})
					tm := startTerm(t, b, core.BackendRequest{Command: []string{"sh", "-c", c.shell}})
					if got := tm.s.plat.cg != nil; got == mode.disableCgroup {
						t.Fatalf("cgroup in use: %v, want %v", got, !mode.disableCgroup)
					}
					m := pidsLine.FindSubmatch(tm.waitFor(" end"))
					if m == nil {
						t.Fatalf("no pid line in %q", tm.output())
					}
					var procs []proc
					for _, f := range strings.Fields(string(m[1])) {
						pid, _ := strconv.Atoi(f)
						st, err := procfs.ReadStat(pid, nil)
						mustf(t, err, "stat %d", pid)
						procs = append(procs, proc{pid: pid, start: st.StartTime})
					}
					if len(procs) != c.want {
						t.Fatalf("%d pids, want %d", len(procs), c.want)
					}
					if c.name == "stopped-itself" {
						eventually(t, "the child to stop", func() bool {
							st, err := procfs.ReadStat(procs[0].pid, nil)
							return err == nil && st.State == 'T'
						})
					}
					ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
					defer cancel()
					mustf(t, tm.s.Close(ctx), "close")
					for _, p := range procs {
						if p.alive() {
							t.Errorf("pid %d survived Close", p.pid)
						}
					}
					if !tm.s.ExitStatus().Exited() {
						t.Errorf("top-level process not reaped after Close")
					}
					if cg := tm.s.plat.cg; cg != nil {
						t.Errorf("cgroup %s still recorded after Close", cg.path)
					}
				})
			}
		})
	}
}

// TestCloseRemovesCgroupLeaf checks the leaf exists while the session runs
// and is gone after Close.
func TestCloseRemovesCgroupLeaf(t *testing.T) {
	requireCgroup(t)
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{Command: []string{"sleep", "100"}})
	path := tm.s.plat.cg.path
	procs, err := os.ReadFile(filepath.Join(path, "cgroup.procs"))
	mustf(t, err, "read cgroup.procs")
	if strings.TrimSpace(string(procs)) != strconv.Itoa(tm.s.PID()) {
		t.Fatalf("cgroup.procs %q, want the leader %d", procs, tm.s.PID())
	}
	mustf(t, tm.s.Close(context.Background()), "close")
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("cgroup leaf %s still there after Close: %v", path, err)
	}
}

func TestConcurrentClose(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			tm := startTerm(t, NewShell(ShellOptions{Options: shortOpts(mode.disableCgroup)}), core.BackendRequest{})
			tm.waitFor("133;B\a")
			tm.send("sleep 100 & sleep 100\r")
			runningInForeground(t, tm.s, "sleep")
			var wg sync.WaitGroup
			errs := make([]error, 8)
			for i := range errs {
				wg.Go(func() {
					ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
					defer cancel()
					errs[i] = tm.s.Close(ctx)
				})
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Errorf("close %d: %v", i, err)
				}
			}
			assertNoSurvivors(t, tm.marker)
			if err := tm.s.Close(context.Background()); err != nil {
				t.Fatalf("close after close: %v", err)
			}
		})
	}
}

// TestCloseCancelledReportsSurvivors: a Close whose context ends before
// the grace period is over reports the processes it could not end yet, and
// a retry finishes the job.
func TestCloseCancelledReportsSurvivors(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			if !mode.disableCgroup {
				requireCgroup(t)
			}
			o := shortOpts(mode.disableCgroup)
			o.CloseGrace = waitLimit // far longer than the first attempt's context
			tm := startTerm(t, NewExec(ExecOptions{Options: o}), core.BackendRequest{
				Command: []string{"sh", "-c", `trap "" TERM HUP; echo ready; while :; do sleep 1; done`},
			})
			tm.waitFor("ready")
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			err := tm.s.Close(ctx)
			ce, ok := errorAsCleanup(err)
			if !ok || len(ce.Survivors) == 0 {
				t.Fatalf("cancelled Close: %v, want a *core.CleanupError with survivors", err)
			}
			if !containsInt(ce.Survivors, tm.s.PID()) {
				t.Fatalf("survivors %v do not name the leader %d", ce.Survivors, tm.s.PID())
			}
			// The retry (cleanup in startTerm) must succeed; make it quick.
			tm.s.opts.CloseGrace = shortOpts(false).CloseGrace
		})
	}
}

func requireCgroup(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("cgroup leaves need root here")
	}
	if _, err := findOwnCgroup(); err != nil {
		t.Skipf("no usable cgroup v2: %v", err)
	}
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func errorAsCleanup(err error) (*core.CleanupError, bool) {
	var ce *core.CleanupError
	ok := errors.As(err, &ce)
	return ce, ok
}
