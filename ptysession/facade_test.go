package ptysession

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/testharness"
)

// These tests run against the real service and the reference registry
// (forEachSeam) and must pass on both.

func TestStatePersistsAcrossSends(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		if r.WaitReason != "" {
			t.Errorf("opening the shell itself typed something: wait reason %q", r.WaitReason)
		}
		for _, cmd := range []string{"cd /tmp", "X=forty-two"} {
			shellSend(t, s, owner, r.SessionID, cmd)
		}
		res := shellSend(t, s, owner, r.SessionID, "echo \"$PWD:$X\"")
		if !strings.Contains(res.Delta, "\n/tmp:forty-two\n") {
			t.Fatalf("delta %q lacks the state set by earlier sends", res.Delta)
		}
		if res.ExitCode == nil || *res.ExitCode != 0 || res.Status.Exited() {
			t.Fatalf("send result %+v, want exit code 0, running", res)
		}
		res = shellSend(t, s, owner, r.SessionID, "(exit 7)")
		if res.ExitCode == nil || *res.ExitCode != 7 {
			t.Fatalf("exit code of (exit 7): %+v", res)
		}
	})
}

func TestOpenTypesCommandIntoShell(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		dir := t.TempDir()
		r := shellOpen(t, s, owner, OpenRequest{Command: "echo opened-in-$PWD", Cwd: dir})
		if !strings.Contains(r.InitialOutput, "opened-in-"+dir+"\n") {
			t.Fatalf("open result %+v", r)
		}
		if r.PID <= 0 || r.Status.Exited() || r.Truncated {
			t.Fatalf("open result %+v", r)
		}
	})
}

func TestPythonPromptVisibleAtOnce(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "python3 -q"})
		// The prompt has no newline, yet a tail shows it as soon as python
		// printed it (the open may return before: a seam that settles on
		// silence, or early).
		waitTailSuffixFrom(t, s, owner, r.SessionID, r.InitialOutput, ">>> ")
		res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "6*7"})
		if err != nil || !strings.HasPrefix("6*7\n42\n>>> ", res.Delta) {
			t.Fatalf("send %+v %v", res, err)
		}
		if res.WaitReason == core.WaitStdinRead && res.Delta != "6*7\n42\n>>> " {
			t.Logf("early settle: %q", res.Delta)
		}
		if text := waitTailSuffixFrom(t, s, owner, r.SessionID, res.Delta, ">>> "); text != "6*7\n42\n>>> " {
			t.Fatalf("delta and tails after the prompt %q: want the continuation only", text)
		}
	})
}

func TestPasswordPromptVisibleWithoutNewline(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: `read -r -s -p 'Password: ' pw; echo; echo "got ${#pw} chars"`})
		if err != nil || res.Status.Exited() {
			t.Fatalf("send %+v %v: want it to wait for the password", res, err)
		}
		if text := waitTailSuffixFrom(t, s, owner, r.SessionID, res.Delta, "Password: "); !strings.HasSuffix(text, "Password: ") {
			t.Fatalf("tail %q", text)
		}
		before := newestLine(t, s, owner, r.SessionID)
		answer, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "hunter2"})
		if err != nil {
			t.Fatal(err)
		}
		waitPromptAfter(t, s, owner, r.SessionID, before)
		text := waitTailSuffixFrom(t, s, owner, r.SessionID, answer.Delta, "# ")
		if !strings.Contains(text, "got 7 chars") || strings.Contains(text, "hunter2") {
			t.Fatalf("after the answer: %q", text)
		}
	})
}

func TestTailNeverResends(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		ctx := testCtx(t)
		var all strings.Builder
		tail := func() TailResult {
			t.Helper()
			tr, err := s.Tail(ctx, owner, r.SessionID, 0)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Truncated || tr.Skipped != 0 {
				t.Fatalf("tail %+v truncated with a backlog under the budget", tr)
			}
			all.WriteString(tr.Text)
			return tr
		}
		all.WriteString(r.InitialOutput) // the open's output counts as given
		waitPrompt(t, s, owner, r.SessionID)
		tail()
		if again := tail(); again.Text != "" || again.Lines != 0 {
			t.Fatalf("second tail resent %q", again.Text)
		}
		for _, cmd := range []string{"echo one", "printf 'two\\nthree'", "echo four"} {
			res := shellSend(t, s, owner, r.SessionID, cmd)
			all.WriteString(res.Delta)
			if again := tail(); again.Text != "" {
				t.Fatalf("tail after a send resent %q", again.Text)
			}
		}
		// Everything the tails returned is the scrollback, exactly.
		page, err := s.Read(ctx, owner, r.SessionID, ReadRequest{Start: 0, Count: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if all.String() != page.Text {
			t.Fatalf("tails %q\n!= scrollback %q", all.String(), page.Text)
		}
	})
}

func TestTailTruncatesExactly(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		ctx := testCtx(t)
		waitPrompt(t, s, owner, r.SessionID)
		// Printed after the send returned, so that a tail gets it.
		sent := sendBeforeOutput(t, s, owner, r.SessionID, "seq 1 500")
		given := int64(strings.Count(sent.Delta, "\n")) // the echo line
		page, err := s.Read(ctx, owner, r.SessionID, ReadRequest{Newest: true, Count: 1})
		if err != nil {
			t.Fatal(err)
		}
		total := page.Total
		tr, err := s.Tail(ctx, owner, r.SessionID, 10)
		if err != nil {
			t.Fatal(err)
		}
		// The newest 10 lines: 492..500 and the prompt line.
		if !tr.Truncated || tr.Skipped != total-10-given || !strings.HasPrefix(tr.Text, "492\n") || tr.Lines != 10 {
			t.Fatalf("tail %+v (total %d), want the newest 10 lines with %d skipped", tr, total, total-10-given)
		}
		if !strings.Contains(tr.Text, "500\n") {
			t.Fatalf("tail %q lacks the last number", tr.Text)
		}
		// A backlog of exactly the budget is not truncated: "1", "2", "3"
		// and the prompt line.
		sendBeforeOutput(t, s, owner, r.SessionID, "seq 1 3")
		tr, err = s.Tail(ctx, owner, r.SessionID, 4)
		if err != nil || tr.Truncated || tr.Skipped != 0 || !strings.HasPrefix(tr.Text, "1\n2\n3\n") || tr.Lines != 4 {
			t.Fatalf("tail %+v %v: want everything, not truncated", tr, err)
		}
		if tr, err = s.Tail(ctx, owner, r.SessionID, 1); err != nil || tr.Truncated || tr.Text != "" {
			t.Fatalf("empty tail %+v %v", tr, err)
		}
	})
}

func TestResultsAreBounded(t *testing.T) {
	forEachSeam(t, Options{MaxResultBytes: 2000}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := shellOpen(t, s, owner, OpenRequest{Command: "seq 100000 101000"})
		if !r.Truncated || len(r.InitialOutput) > 2000 || !strings.Contains(r.InitialOutput, "101000\n") {
			t.Fatalf("open: truncated %v, %d bytes", r.Truncated, len(r.InitialOutput))
		}
		ctx := testCtx(t)
		res := shellSend(t, s, owner, r.SessionID, "seq 200000 201000")
		if !res.Truncated || len(res.Delta) > 2000 || !strings.Contains(res.Delta, "201000\n") || res.Skipped == 0 {
			t.Fatalf("send: truncated %v skipped %d, %d bytes", res.Truncated, res.Skipped, len(res.Delta))
		}
		if !strings.HasPrefix(strings.TrimPrefix(res.Delta, "\n"), "20") {
			t.Fatalf("bounded delta %q does not start at a line", res.Delta[:20])
		}
		sendBeforeOutput(t, s, owner, r.SessionID, "seq 300000 301000")
		tr, err := s.Tail(ctx, owner, r.SessionID, MaxLines)
		if err != nil || !tr.Truncated || len(tr.Text) > 2000 || tr.Skipped == 0 {
			t.Fatalf("tail: %v truncated %v skipped %d, %d bytes", err, tr.Truncated, tr.Skipped, len(tr.Text))
		}
		pg, err := s.Read(ctx, owner, r.SessionID, ReadRequest{Start: 0, Count: MaxLines})
		if err != nil || !pg.Truncated || len(pg.Text) > 2000 || pg.End >= pg.Total || pg.Lines != int(pg.End-pg.Start) {
			t.Fatalf("read: %v %+v", err, pg)
		}
		next, err := s.Read(ctx, owner, r.SessionID, ReadRequest{Start: pg.End, Count: 2})
		if err != nil || next.Start != pg.End || next.Lines != 2 {
			t.Fatalf("paging on from end: %v %+v", err, next)
		}
	})
}

func TestSendProgressAndCancel(t *testing.T) {
	forEachSeam(t, Options{ProgressInterval: 50 * time.Millisecond}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		type out struct {
			res SendResult
			err error
		}
		for try := range settleTries {
			ctx, cancel := context.WithCancel(testCtx(t))
			live := make(chan struct{})
			var once sync.Once
			var mu sync.Mutex
			var progressed strings.Builder
			done := make(chan out, 1)
			before := newestLine(t, s, owner, r.SessionID)
			go func() {
				res, err := s.Send(ctx, owner, r.SessionID, SendRequest{
					// One job: SIGINT to the foreground group always hits it.
					Data: "sh -c 'while :; do echo tick; sleep 0.02; done'",
					Progress: func(d core.OutputDelta) {
						mu.Lock()
						progressed.WriteString(d.Text)
						mu.Unlock()
						if strings.Contains(d.Text, "tick\n") { // printed, not the echo
							once.Do(func() { close(live) })
						}
					},
				})
				done <- out{res, err}
			}()
			select {
			case <-live:
			case o := <-done:
				// The service settled before the shell started the job.
				cancel()
				t.Logf("early settle (try %d): %+v %v", try, o.res, o.err)
				if _, err := s.Signal(testCtx(t), owner, r.SessionID, "SIGINT"); err != nil {
					t.Fatal(err)
				}
				waitPromptAfter(t, s, owner, r.SessionID, before)
				continue
			case <-time.After(waitLimit):
				cancel()
				t.Fatal("no progress report from a send that prints every 20ms")
			}
			// One send at a time.
			if _, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "echo second"}); !errors.Is(err, core.ErrSendActive) {
				cancel()
				t.Fatalf("second send: %v, want SEND_ACTIVE", err)
			}
			// Tails and reads work meanwhile; a tail takes its part of
			// the output, the send's delta has the rest.
			during, err := s.Tail(testCtx(t), owner, r.SessionID, 5)
			if err != nil {
				t.Fatalf("tail during a send: %v", err)
			}
			cancel()
			o := <-done
			if !errors.Is(o.err, core.ErrCancelled) || !errors.Is(o.err, context.Canceled) {
				t.Fatalf("cancelled send: err %v, want CANCELLED matching context.Canceled", o.err)
			}
			if o.res.WaitReason != core.WaitCancelled || !strings.Contains(during.Text+o.res.Delta, "tick\n") {
				t.Fatalf("cancelled send result %+v (tail during it %+v)", o.res, during)
			}
			// SIGINT stopped the job: the shell prompts and serves again.
			waitPromptAfter(t, s, owner, r.SessionID, before)
			assertHealthy(t, s, owner, r.SessionID)
			return
		}
		t.Fatal("every try settled early")
	})
}

func TestSignalForeground(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		ctx := testCtx(t)
		res, err := s.Send(ctx, owner, r.SessionID, SendRequest{Data: "sleep 60", Timeout: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if res.WaitReason != core.WaitTimeout {
			t.Logf("early settle: %s", res.WaitReason)
		}
		// Whether the send settled early or timed out, the shell may not
		// have started sleep yet on a loaded machine: wait until it has.
		testharness.WaitForegroundJob(t, r.PID)
		sr, err := s.Signal(ctx, owner, r.SessionID, "int")
		if err != nil || !sr.Delivered || sr.Signal != "SIGINT" || sr.Leader {
			t.Fatalf("signal: %+v %v", sr, err)
		}
		waitPrompt(t, s, owner, r.SessionID)
		assertHealthy(t, s, owner, r.SessionID)
		// SIGKILL at the shell itself is refused.
		if _, err := s.Signal(ctx, owner, r.SessionID, "SIGKILL"); !errors.Is(err, core.ErrSignalRefused) {
			t.Fatalf("SIGKILL at the shell: %v, want SIGNAL_REFUSED", err)
		}
		assertHealthy(t, s, owner, r.SessionID)
	})
}

func TestExecBackendArgv(t *testing.T) {
	forEachSeam(t, Options{Backend: "exec"}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{
			Command: `python3 -c 'import sys,os; print(sys.argv[1:], os.environ["GREETING"]); sys.exit(3)' "two words" 'it'\''s' \$HOME`,
			Env:     map[string]string{"GREETING": "hi there"},
		})
		ctx := testCtx(t)
		text := r.InitialOutput // the open returned it: output is returned once
		for deadline := time.Now().Add(waitLimit); !strings.Contains(text, "\n") && time.Now().Before(deadline); {
			tr, err := s.Tail(ctx, owner, r.SessionID, 0)
			if err != nil {
				t.Fatal(err)
			}
			text += tr.Text
			if strings.Contains(text, "\n") {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if text != `['two words', "it's", '$HOME'] hi there`+"\n" {
			pg, err := s.Read(ctx, owner, r.SessionID, ReadRequest{})
			t.Fatalf("output %q (initial %q); scrollback %+v %v", text, r.InitialOutput, pg, err)
		}
		st := waitExited(t, s, owner, r.SessionID)
		if st.ExitCode != 3 {
			t.Fatalf("status %+v, want exited 3", st)
		}
		// An exited session is still read and tailed until closed.
		if _, err := s.Read(ctx, owner, r.SessionID, ReadRequest{}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Send(ctx, owner, r.SessionID, SendRequest{Data: "x"}); core.CodeOf(err) != core.CodeSessionExited {
			t.Fatalf("send to an exited session: %v, want SESSION_EXITED", err)
		}
		if c, err := s.Close(ctx, owner, r.SessionID); err != nil || !c.Closed {
			t.Fatalf("close: %+v %v", c, err)
		}
	})
}

func TestListAndClose(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		a, b := core.NewOwner("a"), core.NewOwner("b")
		ra1 := mustOpen(t, s, a, OpenRequest{Command: "bash"})
		ra2 := shellOpen(t, s, a, OpenRequest{Command: "echo x", Name: "second"})
		rb := mustOpen(t, s, b, OpenRequest{Command: "bash"})
		la, err := s.List(testCtx(t), a)
		if err != nil || len(la.Sessions) != 2 || la.Sessions[0].ID != ra1.SessionID || la.Sessions[1].ID != ra2.SessionID {
			t.Fatalf("list a: %+v %v", la, err)
		}
		if la.Sessions[1].Name != "second" || la.Sessions[0].Type != "shell" || la.Sessions[0].PID != ra1.PID || la.Sessions[1].TotalLines < 2 {
			t.Fatalf("list a: %+v", la)
		}
		ctx := testCtx(t)
		if _, err := s.Tail(ctx, a, ra1.SessionID, 0); err != nil {
			t.Fatal(err)
		}
		c, err := s.Close(ctx, a, ra1.SessionID)
		if err != nil || !c.Closed {
			t.Fatalf("close: %+v %v", c, err)
		}
		if c, err = s.Close(ctx, a, ra1.SessionID); err != nil || c.Closed {
			t.Fatalf("second close: %+v %v, want closed false", c, err)
		}
		lb, err := s.List(testCtx(t), b)
		if err != nil || len(lb.Sessions) != 1 || lb.Sessions[0].ID != rb.SessionID {
			t.Fatalf("list b: %+v %v", lb, err)
		}
		if la, _ = s.List(testCtx(t), a); len(la.Sessions) != 1 {
			t.Fatalf("list a after close: %+v", la)
		}
	})
}

func TestDispose(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		a, b := core.NewOwner("a"), core.NewOwner("b")
		ctx := testCtx(t)
		ra, err := s.Open(ctx, a, OpenRequest{Command: "bash"})
		if err != nil {
			t.Fatal(err)
		}
		rb := mustOpen(t, s, b, OpenRequest{Command: "bash"})
		if _, err := s.Tail(ctx, a, ra.SessionID, 0); err != nil {
			t.Fatal(err)
		}
		if err := s.Dispose(ctx, a); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Open(ctx, a, OpenRequest{Command: "bash"}); !errors.Is(err, core.ErrOwnerDisposed) {
			t.Fatalf("open after dispose: %v, want OWNER_DISPOSED", err)
		}
		if ra.PID > 0 && processAlive(ra.PID) {
			t.Fatalf("pid %d survived the dispose", ra.PID)
		}
		assertHealthy(t, s, b, rb.SessionID)
	})
}

// assertHealthy checks that a session still runs commands.
func assertHealthy(t *testing.T, s *Sessions, owner *core.Owner, id core.SessionID) {
	t.Helper()
	if res := shellSend(t, s, owner, id, "echo healthy-$((40+2))"); !strings.Contains(res.Delta, "healthy-42\n") {
		t.Fatalf("session not healthy: %+v", res)
	}
}

// waitTailSuffix tails until the concatenated tails end with suffix and
// returns them.
func waitTailSuffix(t *testing.T, s *Sessions, owner *core.Owner, id core.SessionID, suffix string) string {
	t.Helper()
	return waitTailSuffixFrom(t, s, owner, id, "", suffix)
}

// waitTailSuffixFrom is waitTailSuffix after output already given (an
// open's or a send's): it returns given and the tails after it.
func waitTailSuffixFrom(t *testing.T, s *Sessions, owner *core.Owner, id core.SessionID, given, suffix string) string {
	t.Helper()
	var all strings.Builder
	all.WriteString(given)
	if strings.HasSuffix(given, suffix) {
		return given
	}
	for range 1000 {
		tr, err := s.Tail(testCtx(t), owner, id, 0)
		if err != nil || tr.Truncated {
			t.Fatalf("tail: %+v %v", tr, err)
		}
		all.WriteString(tr.Text)
		if strings.HasSuffix(all.String(), suffix) {
			return all.String()
		}
		sleepBriefly()
	}
	t.Fatalf("tails %q never ended with %q", all.String(), suffix)
	return ""
}

// waitPrompt waits until the newest line is a shell prompt, so that the
// next send is not typed while a dying program still owns the terminal.
func waitPrompt(t *testing.T, s *Sessions, owner *core.Owner, id core.SessionID) {
	t.Helper()
	waitPromptAfter(t, s, owner, id, -1)
}

// waitExited polls List until the session's status is exited.
func waitExited(t *testing.T, s *Sessions, owner *core.Owner, id core.SessionID) core.Status {
	t.Helper()
	for range 500 {
		l, err := s.List(testCtx(t), owner)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range l.Sessions {
			if in.ID == id && in.Status.Exited() {
				return in.Status
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the session did not exit")
	return core.Status{}
}
