package ptytools

// Helpers of the pty tools' tests: a facade over each seam (the service
// and the testharness registry), sessions closed and checked when a test
// ends, and waits for a shell's prompt. They follow the facade's own test
// helpers (ptysession/seams_test.go), which a test of another package
// cannot import.

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/testharness"
)

// TestMain checks for leaked goroutines and surviving child processes.
func TestMain(m *testing.M) { testharness.VerifyTestMain(m) }

// forEachSeam runs f against a facade over every seam.
func forEachSeam(t *testing.T, opts ptysession.Options, f func(t *testing.T, s *ptysession.Sessions)) {
	t.Helper()
	for _, sm := range testharness.Seams() {
		t.Run(sm.Name, func(t *testing.T) {
			f(t, ptysession.New(sm.New(t), opts))
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
func mustOpen(t *testing.T, s *ptysession.Sessions, owner *core.Owner, req ptysession.OpenRequest) ptysession.OpenResult {
	t.Helper()
	r, err := s.Open(testCtx(t), owner, req)
	if err != nil {
		t.Fatalf("Open(%+v): %v", req, err)
	}
	t.Cleanup(func() { closeAndCheck(t, s, owner, r) })
	return r
}

// closeAndCheck closes a session and checks its top-level process is gone.
func closeAndCheck(t *testing.T, s *ptysession.Sessions, owner *core.Owner, r ptysession.OpenResult) {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	if _, err := s.Close(ctx, owner, r.SessionID); err != nil && core.CodeOf(err) != core.CodeOwnerDisposed {
		t.Errorf("Close: %v", err)
	}
	if r.PID > 0 && testharness.ProcessAlive(r.PID) {
		t.Errorf("pid %d survived the close", r.PID)
	}
}

// shellSend sends an idempotent command line to a shell session and
// returns the first result that settled on the prompt.
func shellSend(t *testing.T, s *ptysession.Sessions, owner *core.Owner, id core.SessionID, line string) ptysession.SendResult {
	t.Helper()
	ctx := testCtx(t)
	for range settleTries {
		before := newestLine(t, s, owner, id)
		res, err := s.Send(ctx, owner, id, ptysession.SendRequest{Data: line})
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
	return ptysession.SendResult{}
}

// newestLine returns the number of the newest line.
func newestLine(t *testing.T, s *ptysession.Sessions, owner *core.Owner, id core.SessionID) int64 {
	t.Helper()
	pg, err := s.Read(testCtx(t), owner, id, ptysession.ReadRequest{Newest: true, Count: 1})
	if err != nil {
		t.Fatal(err)
	}
	return pg.Start
}

// waitPromptAfter waits until the newest line is a shell prompt (the local
// shell backend's prompt ends with "# " for root, "$ " otherwise) numbered
// above line.
func waitPromptAfter(t *testing.T, s *ptysession.Sessions, owner *core.Owner, id core.SessionID, line int64) {
	t.Helper()
	for range 2000 {
		pg, err := s.Read(testCtx(t), owner, id, ptysession.ReadRequest{Newest: true, Count: 1})
		if err != nil {
			t.Fatal(err)
		}
		if pg.Start > line && pg.Partial && (strings.HasSuffix(pg.Text, "# ") || strings.HasSuffix(pg.Text, "$ ")) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the shell did not prompt again")
}

const settleTries = 5

// waitPrompt waits until the newest line is a shell prompt, so that the
// next send is not typed while a dying program still owns the terminal.
func waitPrompt(t *testing.T, s *ptysession.Sessions, owner *core.Owner, id core.SessionID) {
	t.Helper()
	waitPromptAfter(t, s, owner, id, -1)
}

// assertHealthy checks that a session still runs commands.
func assertHealthy(t *testing.T, s *ptysession.Sessions, owner *core.Owner, id core.SessionID) {
	t.Helper()
	if res := shellSend(t, s, owner, id, "echo healthy-$((40+2))"); !strings.Contains(res.Delta, "healthy-42\n") {
		t.Fatalf("session not healthy: %+v", res)
	}
}

// waitLimit bounds every wait for behaviour in the tests: a hang guard,
// not a timing assertion (testenv.HangBound, the workspace's one bound).
const waitLimit = testenv.HangBound

// benchSession opens a session on the real service that echoes each line
// back (cat on the exec backend).
func benchSession(b *testing.B) (*ptysession.Sessions, *core.Service, *core.Owner, core.SessionID) {
	b.Helper()
	s := ptysession.New(newBenchService(b), ptysession.Options{Backend: "exec"})
	owner := core.NewOwner("bench")
	r, err := s.Open(context.Background(), owner, ptysession.OpenRequest{Command: "cat"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _, _ = s.Close(context.Background(), owner, r.SessionID) })
	return s, s.Terminals().(*core.Service), owner, r.SessionID
}

func newBenchService(b *testing.B) *core.Service {
	b.Helper()
	svc := core.New(core.Options{Logger: quietLogger()})
	if err := localpty.Register(svc); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = svc.Shutdown(ctx)
	})
	return svc
}

// onService runs f against a facade over the real service (the seam
// whose sessions stream their output, see tapper).
func onService(t *testing.T, f func(t *testing.T, s *ptysession.Sessions)) {
	t.Helper()
	for _, sm := range testharness.Seams() {
		if sm.Name == "service" {
			f(t, ptysession.New(sm.New(t), ptysession.Options{}))
			return
		}
	}
	t.Fatal("no service seam")
}

// lastLine returns the text after the last newline of s.
func lastLine(s string) string {
	return s[strings.LastIndexByte(s, '\n')+1:]
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
