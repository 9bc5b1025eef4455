//go:build unix

package jobs_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/ptytools"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// newKit returns a local facade with a jobs manager attached.
func newKit(t *testing.T, svc core.Options, cfg jobs.Config) (*ptysession.Sessions, *jobs.Manager) {
	t.Helper()
	svc.Logger, cfg.Logger = quiet(), quiet()
	s, err := ptysession.NewLocal(ptysession.Options{Backend: "exec", Service: svc})
	if err != nil {
		t.Fatal(err)
	}
	jm, err := jobs.New(s.Service(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Attach(jm)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Error(err)
		}
	})
	return s, jm
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	t.Cleanup(cancel)
	return ctx
}

// Jobs and terminals have their own limits, and jobs stay out of the
// terminal listing and the pty tools, which name the bg_* tool to use.
func TestJobsApartFromTerminals(t *testing.T) {
	s, jm := newKit(t, core.Options{MaxSessionsPerOwner: 2}, jobs.Config{MaxJobsPerOwner: 2})
	ctx := ctxFor(t)
	a := s.NewAgent("a")
	done, err := jm.Launch(ctx, a.Owner(), jobs.LaunchRequest{Command: "true"})
	if err != nil {
		t.Fatal(err)
	}
	running, err := jm.Launch(ctx, a.Owner(), jobs.LaunchRequest{Command: "sleep", Args: []string{"60"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(running.ID, "job_") {
		t.Fatalf("job id %q", running.ID)
	}
	_, err = jm.Launch(ctx, a.Owner(), jobs.LaunchRequest{Command: "true"})
	if !errors.Is(err, core.ErrTooManySessions) || !strings.Contains(err.Error(), "drop ended jobs") {
		t.Fatalf("a third job: %v, want TOO_MANY_SESSIONS saying what to drop", err)
	}
	// Two jobs held; the agent still opens its two terminals.
	var ids []string
	for range 2 {
		r, err := a.Open(ctx, ptysession.OpenRequest{Command: "cat"})
		if err != nil {
			t.Fatalf("a terminal beside two jobs: %v", err)
		}
		ids = append(ids, string(r.SessionID))
	}
	if _, err := a.Open(ctx, ptysession.OpenRequest{Command: "cat"}); !errors.Is(err, core.ErrTooManySessions) {
		t.Fatalf("a third terminal: %v", err)
	}

	d, err := tools.NewDispatcher(tools.Options{}, ptytools.Tools(s)...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := d.Call(ctx, a.Owner(), ptytools.ToolList, json.RawMessage(`{}`), tools.CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if l := res.Structured.(ptysession.ListResult); len(l.Sessions) != 2 || strings.Contains(res.Text, "job_") {
		t.Fatalf("pty_list %+v lists jobs", l)
	}
	for _, c := range []struct{ tool, args string }{
		{ptytools.ToolSend, `{"id":"` + running.ID + `","data":"x"}`},
		{ptytools.ToolClose, `{"id":"` + running.ID + `"}`},
		{ptytools.ToolSignal, `{"id":"` + running.ID + `","signal":"SIGINT"}`},
		{ptytools.ToolTail, `{"id":"` + done.ID + `"}`},
	} {
		_, err := d.Call(ctx, a.Owner(), c.tool, json.RawMessage(c.args), tools.CallOptions{})
		var te *tools.ToolError
		if !errors.As(err, &te) || te.Code != string(core.CodeWrongKind) || !strings.Contains(te.Hint, "bg_send") {
			t.Errorf("%s with a job id: %#v, want WRONG_KIND naming bg_send", c.tool, err)
		}
	}
	if info, err := jm.Get(a.Owner(), running.ID); err != nil || info.State != jobs.StateRunning {
		t.Fatalf("the job after pty calls: %+v %v", info, err)
	}
	if _, err := jm.Get(a.Owner(), ids[0]); !errors.Is(err, core.ErrWrongKind) {
		t.Fatalf("a job call with a terminal id: %v", err)
	}
}

// An agent's handle lists everything it started and disposes it in order:
// its jobs stop by shutdown (not failed by a closed terminal), then its
// terminals close; other agents keep theirs.
func TestAgentStartedAndDispose(t *testing.T) {
	s, jm := newKit(t, core.Options{}, jobs.Config{})
	ctx := ctxFor(t)
	a, b := s.NewAgent("a"), s.NewAgent("b")
	exits := make(chan jobs.Event, 4)
	defer jm.OnExit(func(ev jobs.Event) { exits <- ev })()
	term, err := a.Open(ctx, ptysession.OpenRequest{Command: "cat", Name: "cat"})
	if err != nil {
		t.Fatal(err)
	}
	job, err := jm.Launch(ctx, a.Owner(), jobs.LaunchRequest{Command: "sleep", Args: []string{"60"}, Title: "sleeper"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := jm.Launch(ctx, b.Owner(), jobs.LaunchRequest{Command: "sleep", Args: []string{"60"}})
	if err != nil {
		t.Fatal(err)
	}
	started, err := a.Started(ctx)
	if err != nil || len(started) != 2 ||
		started[0].Kind != ptysession.KindTerminal || started[0].ID != term.SessionID ||
		started[1].Kind != "job" || string(started[1].ID) != job.ID || started[1].Name != "sleeper" || started[1].Status.Exited() {
		t.Fatalf("started %+v %v", started, err)
	}
	if err := a.Dispose(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-exits:
		if ev.ID != job.ID || ev.Info.State != jobs.StateStopped || ev.Info.StopReason != jobs.ReasonShutdown {
			t.Fatalf("the job ended as %+v, want stopped by shutdown", ev.Info)
		}
	case <-time.After(testenv.HangBound):
		t.Fatal("the job did not end")
	}
	if _, err := jm.Launch(ctx, a.Owner(), jobs.LaunchRequest{Command: "true"}); !errors.Is(err, core.ErrOwnerDisposed) {
		t.Fatalf("a launch after dispose: %v", err)
	}
	if _, err := a.Started(ctx); !errors.Is(err, core.ErrOwnerDisposed) {
		t.Fatalf("started after dispose: %v", err)
	}
	if info, err := jm.Get(b.Owner(), other.ID); err != nil || info.State != jobs.StateRunning {
		t.Fatalf("the other agent's job: %+v %v", info, err)
	}
}

// List takes a ctx like every other call.
func TestListHonoursCtx(t *testing.T) {
	s, _ := newKit(t, core.Options{}, jobs.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.NewAgent("a").List(ctx); !errors.Is(err, core.ErrCancelled) {
		t.Fatalf("List with a cancelled ctx: %v", err)
	}
}
