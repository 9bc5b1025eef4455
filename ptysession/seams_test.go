package ptysession

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/testharness"
)

// waitLimit bounds every wait for behaviour in the tests: a hang guard,
// not a timing assertion (testenv.HangBound, the workspace's one bound).
const waitLimit = testenv.HangBound

// forEachSeam runs f against a facade over every seam.
func forEachSeam(t *testing.T, opts Options, f func(t *testing.T, s *Sessions)) {
	t.Helper()
	for _, sm := range testharness.Seams() {
		t.Run(sm.Name, func(t *testing.T) {
			f(t, New(sm.New(t), opts))
		})
	}
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	t.Cleanup(cancel)
	return ctx
}

// mustOpen opens a session and closes it when the test ends, checking that
// its top-level process is gone.
func mustOpen(t *testing.T, s *Sessions, owner *core.Owner, req OpenRequest) OpenResult {
	t.Helper()
	r, err := s.Open(testCtx(t), owner, req)
	if err != nil {
		t.Fatalf("Open(%+v): %v", req, err)
	}
	t.Cleanup(func() { closeAndCheck(t, s, owner, r) })
	return r
}

func processAlive(pid int) bool { return testharness.ProcessAlive(pid) }

func sleepBriefly() { time.Sleep(10 * time.Millisecond) }

// sendBeforeOutput sends cmd to a shell session so that the send returns
// before cmd prints anything: the shell runs cmd once a file exists,
// which is made after the send settled on its quiet window (nothing else
// can settle it: no prompt, no read). It then waits for the prompt after
// cmd and returns the send's result. (A sleep before cmd longer than the
// window was no such order: under load the send's wake-up came after the
// output and the prompt.)
func sendBeforeOutput(t *testing.T, s *Sessions, owner *core.Owner, id core.SessionID, cmd string) SendResult {
	t.Helper()
	gate := filepath.Join(t.TempDir(), "go")
	sent, err := s.Send(testCtx(t), owner, id, SendRequest{Data: "while [ ! -e " + ShellQuote(gate) + " ]; do sleep 0.01; done; " + cmd, QuietWindow: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	waitPrompt(t, s, owner, id)
	return sent
}

// A send to an interactive shell can settle before the shell finished the
// typed line: the service (also under the testharness registry) was seen
// to settle an open on stdin_read at a load average of 25 on 2 cores. The
// helpers below keep the facade's tests about the facade: they retry an
// idempotent command line until a send settles on the prompt that follows
// it, and log every early settle they saw.

const settleTries = 5

// shellSend sends an idempotent command line to a shell session and
// returns the first result that settled on the prompt.
func shellSend(t *testing.T, s *Sessions, owner *core.Owner, id core.SessionID, line string) SendResult {
	t.Helper()
	ctx := testCtx(t)
	for range settleTries {
		before := newestLine(t, s, owner, id)
		res, err := s.Send(ctx, owner, id, SendRequest{Data: line})
		if err != nil {
			t.Fatalf("send %q: %v", line, err)
		}
		if res.WaitReason == core.WaitPrompt && strings.Contains(res.Delta, "\n") {
			return res
		}
		t.Logf("early settle: %q settled as %s before the shell finished it (delta %q)", line, res.WaitReason, res.Delta)
		waitPromptAfter(t, s, owner, id, before)
	}
	t.Fatalf("send %q never settled on the prompt", line)
	return SendResult{}
}

// shellOpen opens a session whose typed command completes at the shell's
// prompt, reopening (at most settleTries times) where the open returned
// before the command finished.
func shellOpen(t *testing.T, s *Sessions, owner *core.Owner, req OpenRequest) OpenResult {
	t.Helper()
	for range settleTries {
		r, err := s.Open(testCtx(t), owner, req)
		if err != nil {
			t.Fatalf("Open(%+v): %v", req, err)
		}
		if r.WaitReason == core.WaitPrompt && strings.Contains(r.InitialOutput, "\n") {
			t.Cleanup(func() { closeAndCheck(t, s, owner, r) })
			return r
		}
		t.Logf("early settle: open of %q returned on %s", req.Command, r.WaitReason)
		waitPromptAfter(t, s, owner, r.SessionID, 0)
		closeAndCheck(t, s, owner, r)
	}
	t.Fatalf("open of %q never settled on the prompt", req.Command)
	return OpenResult{}
}

// newestLine returns the number of the newest line.
func newestLine(t *testing.T, s *Sessions, owner *core.Owner, id core.SessionID) int64 {
	t.Helper()
	pg, err := s.Read(testCtx(t), owner, id, ReadRequest{Newest: true, Count: 1})
	if err != nil {
		t.Fatal(err)
	}
	return pg.Start
}

// waitPromptAfter waits until the newest line is a shell prompt (the local
// shell backend's prompt ends with "# " for root, "$ " otherwise) numbered
// above line.
func waitPromptAfter(t *testing.T, s *Sessions, owner *core.Owner, id core.SessionID, line int64) {
	t.Helper()
	for range 2000 {
		pg, err := s.Read(testCtx(t), owner, id, ReadRequest{Newest: true, Count: 1})
		if err != nil {
			t.Fatal(err)
		}
		if pg.Start > line && pg.Partial && (strings.HasSuffix(pg.Text, "# ") || strings.HasSuffix(pg.Text, "$ ")) {
			return
		}
		sleepBriefly()
	}
	t.Fatal("the shell did not prompt again")
}

// closeAndCheck closes a session and checks its top-level process is gone.
func closeAndCheck(t *testing.T, s *Sessions, owner *core.Owner, r OpenResult) {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	if _, err := s.Close(ctx, owner, r.SessionID); err != nil && core.CodeOf(err) != core.CodeOwnerDisposed {
		t.Errorf("Close: %v", err)
	}
	if r.PID > 0 && processAlive(r.PID) {
		t.Errorf("pid %d survived the close", r.PID)
	}
}

func registerLocal(r core.Registrar) error { return localpty.Register(r) }
