package jobs

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/procfs"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

// fixture is a core service, a manager on it and an owner, torn down (and
// checked for surviving processes) at the end of the test.
type fixture struct {
	svc   *core.Service
	m     *Manager
	owner *core.Owner
	pids  []int
}

func newFixture(t *testing.T, cfg Config) *fixture {
	t.Helper()
	svc := core.New(core.Options{Logger: quietLog})
	registerPTY(t, svc)
	if cfg.Logger == nil {
		cfg.Logger = quietLog
	}
	m, err := New(svc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{svc: svc, m: m, owner: core.NewOwner("test")}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
		defer cancel()
		if err := m.Shutdown(ctx); err != nil {
			t.Errorf("manager shutdown: %v", err)
		}
		if err := svc.Shutdown(ctx); err != nil {
			t.Errorf("service shutdown: %v", err)
		}
		for _, pid := range f.pids {
			assertGone(t, pid)
		}
	})
	return f
}

func (f *fixture) launch(t *testing.T, req LaunchRequest) Info {
	t.Helper()
	info, err := f.m.Launch(context.Background(), f.owner, req)
	if err != nil {
		t.Fatalf("launch %q %q: %v", req.Command, req.Args, err)
	}
	f.pids = append(f.pids, info.PID)
	return info
}

func sh(script string) LaunchRequest {
	return LaunchRequest{Command: "sh", Args: []string{"-c", script}}
}

// waitInfo polls job id until cond holds.
func (f *fixture) waitInfo(t *testing.T, id string, what string, cond func(Info) bool) Info {
	t.Helper()
	deadline := time.Now().Add(testenv.HangBound)
	var in Info
	for time.Now().Before(deadline) {
		var err error
		in, err = f.m.Get(f.owner, id)
		if err != nil {
			t.Fatalf("get %s: %v", id, err)
		}
		if cond(in) {
			return in
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("job %s never got %s; last %+v", id, what, in)
	return in
}

func (f *fixture) waitEnded(t *testing.T, id string) Info {
	t.Helper()
	return f.waitInfo(t, id, "a final state", func(in Info) bool { return in.State.Final() })
}

// waitOutput polls the job's newest lines until one contains want.
func (f *fixture) waitOutput(t *testing.T, id, want string) {
	t.Helper()
	deadline := time.Now().Add(testenv.HangBound)
	var last []Line
	for time.Now().Before(deadline) {
		res, err := f.m.Read(f.owner, id, ReadRequest{Limit: 50})
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		for _, l := range res.Lines {
			if strings.Contains(l.Text, want) {
				return
			}
		}
		last = res.Lines
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("job %s never printed %q; last lines %+v", id, want, last)
}

// assertGone fails unless pid no longer runs (a zombie counts as gone).
func assertGone(t *testing.T, pid int) {
	t.Helper()
	if pid <= 0 {
		return
	}
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return
	}
	if !procfs.Alive(pid, 0) {
		return
	}
	t.Errorf("process %d survived", pid)
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func ptr[T any](v T) *T { return &v }
