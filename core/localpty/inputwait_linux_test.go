package localpty

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// startThreadREPL runs this test binary as the thread REPL on a terminal.
func startThreadREPL(t *testing.T) *term {
	t.Helper()
	exe, err := os.Executable()
	mustf(t, err, "the test binary's path")
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{
		Command: []string{exe},
		Env:     []string{threadREPLEnv + "=1"},
	})
	tm.waitFor("> ")
	return tm
}

// awaitWaiting asks until the program waits for input with everything it
// printed taken in, and returns that answer.
func awaitWaiting(t *testing.T, tm *term, base core.InputBaseline) core.InputWait {
	t.Helper()
	var w core.InputWait
	eventually(t, "the REPL waiting for input", func() bool {
		var err error
		w, err = tm.s.InputWait(base, uint64(len(tm.output())))
		mustf(t, err, "InputWait")
		return w.Waiting && w.Reading
	})
	return w
}

// A REPL whose reading thread changes from one line to the next (Go, JVM
// and Node programs) can block its new reader with as many wake-ups as the
// old one had: the thread REPL does so on every line. The wait after each
// line it read and answered is new all the same. (On a loaded machine the
// Go runtime can add a wake-up to one of its reads; the test needs at
// least one pair of waits with equal counts, and checks every pair.)
func TestInputWaitNewWhenAnotherThreadReads(t *testing.T) {
	tm := startThreadREPL(t)
	prev := awaitWaiting(t, tm, core.InputBaseline{})
	coincided := 0
	for _, line := range []string{"one", "two", "three", "four", "five"} {
		tm.send(line + "\r")
		tm.waitFor(line + "\r\n" + line + "\r\n> ")
		w := awaitWaiting(t, tm, prev.Now)
		if w.Now.Wakes == prev.Now.Wakes {
			coincided++
		}
		if !w.New {
			t.Fatalf("the wait after %q, read on another thread, is not new: %+v, base %+v", line, w, prev.Now)
		}
		prev = w
	}
	if coincided == 0 {
		t.Fatalf("the premise: the REPL's reads block with the same wake-ups; no two did. Output:\n%q", tail(tm.output()))
	}
}

// A send to such a REPL settles on its read of the next line, not on
// silence: the service asks the same question with the baseline it took
// before the write.
func TestSendSettlesOnReadWhenAnotherThreadReads(t *testing.T) {
	exe, err := os.Executable()
	mustf(t, err, "the test binary's path")
	svc := serviceOf(t, NewExec(ExecOptions{Options: shortOpts(false)}))
	owner := core.NewOwner("thread-repl")
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	info, err := svc.Spawn(ctx, owner, core.SpawnRequest{
		Type:    TypeExec,
		Command: []string{exe},
		Env:     []string{threadREPLEnv + "=1"},
	})
	mustf(t, err, "spawn")
	for _, line := range []string{"one", "two", "three"} {
		res := sendWait(t, svc, owner, info.ID, line)
		if res.WaitReason != core.WaitStdinRead || !strings.Contains(res.Delta, line+"\n> ") {
			t.Fatalf("send %q: settled as %s after %v with %q, want stdin_read after the answer", line, res.WaitReason, res.Elapsed, res.Delta)
		}
	}
}
