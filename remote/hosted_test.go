package remote_test

import (
	"context"
	"errors"
	"io"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// hookCounts counts the calls of a Session's hooks.
type hookCounts struct {
	teardown, lost, ended atomic.Int32
}

var errPlaceGone = errors.New("the place the agent ran in is gone")

func (h *hookCounts) hooks() remote.SessionHooks {
	return remote.SessionHooks{
		Teardown: func(context.Context) error { h.teardown.Add(1); return nil },
		Lost: func(_ <-chan struct{}, st core.Status, cause error) (core.Status, error) {
			h.lost.Add(1)
			st.Reason = "place gone"
			return st, errors.Join(errPlaceGone, cause)
		},
		Ended: func() { h.ended.Add(1) },
	}
}

func spawnSleep(t *testing.T, c *remote.Conn) core.BackendSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	rs, err := c.Spawn(ctx, remote.AgentExec, core.BackendRequest{Command: []string{"sleep", "60"}})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func waitExited(t *testing.T, s core.BackendSession) {
	t.Helper()
	select {
	case <-s.Exited():
	case <-time.After(waitLimit):
		t.Fatal("the session did not end")
	}
}

// A Session closed by its caller runs the backend's teardown once and
// ends without asking the backend why: nothing was lost.
func TestSessionCloseRunsTeardown(t *testing.T) {
	c, _ := connectPipe(t)
	var h hookCounts
	s := remote.NewSession(c, spawnSleep(t, c), h.hooks())
	if !s.Facts().WatchesInput {
		t.Error("Facts: the session should answer the settle question")
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	for range 2 {
		if err := s.Close(ctx); err != nil {
			t.Fatalf("Close: %v", err)
		}
	}
	waitExited(t, s)
	if got := h.teardown.Load(); got != 1 {
		t.Errorf("teardown ran %d times, want 1", got)
	}
	if h.lost.Load() != 0 || h.ended.Load() != 1 {
		t.Errorf("lost %d, ended %d: want 0 and 1", h.lost.Load(), h.ended.Load())
	}
	if err := s.ExitCause(); err != nil {
		t.Errorf("ExitCause %v after a Close", err)
	}
}

// A Session whose stream to the agent is lost reports the end as the
// backend's Lost explains it, and its Close still tears down.
func TestSessionLostAsTheBackendSays(t *testing.T) {
	a := startAgent(t)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c, err := remote.Connect(ctx, a.stream)
	if err != nil {
		t.Fatal(err)
	}
	var h hookCounts
	s := remote.NewSession(c, spawnSleep(t, c), h.hooks())
	_ = a.cmd.Process.Kill()
	waitExited(t, s)
	if cause := s.ExitCause(); !errors.Is(cause, errPlaceGone) || !errors.Is(cause, remote.ErrConnectionLost) {
		t.Errorf("ExitCause %v: want the backend's error and ErrConnectionLost", cause)
	}
	if st := s.ExitStatus(); st.Reason != "place gone" {
		t.Errorf("Reason %q, want the backend's", st.Reason)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if h.teardown.Load() != 1 || h.lost.Load() != 1 || h.ended.Load() != 1 {
		t.Errorf("teardown %d, lost %d, ended %d: want 1 each", h.teardown.Load(), h.lost.Load(), h.ended.Load())
	}
}

// A Session passes the questions a secret needs (the echo mode, who reads
// the terminal) to the agent's session, so that pty_secret can type into
// a container's or a pod's password prompt.
func TestSessionForwardsSecretQuestions(t *testing.T) {
	c, _ := connectPipe(t)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	rs, err := c.Spawn(ctx, remote.AgentExec, core.BackendRequest{Command: []string{"python3", "-c", "import getpass; getpass.getpass('pw: ')"}})
	if err != nil {
		t.Fatal(err)
	}
	var h hookCounts
	s := remote.NewSession(c, rs, h.hooks())
	t.Cleanup(func() {
		if err := s.Close(context.Background()); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	go func() { _, _ = io.Copy(io.Discard, s) }()
	p := core.ProberOf(s)
	for {
		m, err := p.EchoMode()
		if err != nil {
			t.Fatalf("EchoMode: %v", err)
		}
		if m == core.EchoHidden {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("echo mode %v, want hidden at getpass's prompt", m)
		case <-time.After(20 * time.Millisecond):
		}
	}
	r, err := p.DescribeReader()
	if err != nil {
		t.Fatalf("DescribeReader: %v", err)
	}
	if len(r.Programs) != 1 || !slices.Contains(r.Programs[0].Argv, "import getpass; getpass.getpass('pw: ')") {
		t.Fatalf("DescribeReader: %+v, want the python3 that asks", r)
	}
}
