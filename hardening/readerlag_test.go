package hardening

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// laggingReader wraps the local exec backend so that every Read hands its
// bytes over readerLag after it took them from the terminal: the service's
// reader as a loaded machine schedules it. The backend's answer about the
// foreground (core.Prober's settle question) is passed through, so the
// terminal looks drained while the reply is still on its way to the
// scrollback.
type laggingReader struct{ core.Backend }

const readerLag = 150 * time.Millisecond

func (l laggingReader) Type() string { return "lagging" }

func (l laggingReader) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	s, err := l.Backend.Spawn(ctx, req)
	if err != nil {
		return nil, err
	}
	return &laggingSession{BackendSession: s, input: core.ProberOf(s)}, nil
}

// laggingSession answers the settle question alone of the backend's
// core.Prober questions.
type laggingSession struct {
	core.BackendSession
	core.UnimplementedProber
	input core.Prober
}

func (s *laggingSession) Facts() core.Facts { return core.Facts{WatchesInput: true} }

func (s *laggingSession) Read(p []byte) (int, error) {
	n, err := s.BackendSession.Read(p)
	if n > 0 {
		time.Sleep(readerLag)
	}
	return n, err
}

func (s *laggingSession) Foreground() (core.InputBaseline, error) { return s.input.Foreground() }

func (s *laggingSession) InputWait(base core.InputBaseline, taken uint64) (core.InputWait, error) {
	return s.input.InputWait(base, taken)
}

// TestSendWaitsForOutputStillInTheReader: a program that answered and went
// back to reading has its answer out of the terminal buffer and in the
// service's reader. A send must not settle on stdin_read until the reader
// has handed that answer to the scrollback (CI saw a reply go missing this
// way under load).
func TestSendWaitsForOutputStillInTheReader(t *testing.T) {
	svc := newService(t, core.Options{})
	if _, err := svc.Register(laggingReader{localpty.NewExec(localpty.ExecOptions{})}); err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t, testenv.HangBound)
	owner := core.NewOwner("reader-lag")
	s := spawnSession(t, ctx, svc, owner, core.SpawnRequest{Type: "lagging",
		Command: []string{"python3", "-c", `print("READY", flush=True)
while True: print("got", input(), flush=True)`}})
	// A word typed before python started (python3 may be a version
	// manager's shim taking seconds under load) would settle on the quiet
	// window, as it should: the sends start once the program is up.
	for deadline := time.Now().Add(testenv.HangBound); ; {
		page, err := svc.Read(owner, s.ID, core.PageRequest{Start: 0, Count: 10})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.Join(page.Lines, "\n"), "READY") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("python never printed READY: %+v", page)
		}
		time.Sleep(10 * time.Millisecond)
	}
	for i := range 3 {
		word := fmt.Sprintf("word-%d", i)
		// The send settles on python's next read; silence, however long
		// a loaded machine keeps python from answering, is the failure.
		res := sendWait(t, ctx, svc, owner, s.ID, core.SendRequest{Data: word, Timeout: testenv.HangBound, QuietWindow: testenv.HangBound})
		if !strings.Contains(res.Delta, "got "+word) || res.WaitReason != core.WaitStdinRead {
			t.Fatalf("send %d settled as %s after %s: %q", i, res.WaitReason, res.Elapsed, res.Delta)
		}
	}
}
