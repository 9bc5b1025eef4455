package jobs

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

// registerPTY registers the local PTY backend ("shell" and "exec").
func registerPTY(t *testing.T, svc *core.Service) {
	t.Helper()
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
}

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

// waitInfo waits until cond holds for job id. It checks the job's Info
// once, then again on each of the job's events: the manager counts and
// scans output before it publishes a data event, and records the end
// before it publishes the exit event, so every change cond can see is
// followed by an event. It fails after testenv.HangBound.
func (f *fixture) waitInfo(t *testing.T, id string, what string, cond func(Info) bool) Info {
	t.Helper()
	events := f.jobEvents(id)
	defer events.stop()
	var in Info
	for {
		var err error
		in, err = f.m.Get(f.owner, id)
		if err != nil {
			t.Fatalf("get %s: %v", id, err)
		}
		if cond(in) {
			return in
		}
		if events.exited {
			t.Fatalf("job %s ended without %s (nothing changes after its exit event): %+v", id, what, in)
		}
		if !events.next() {
			t.Fatalf("job %s never got %s within %v; last %+v", id, what, testenv.HangBound, in)
		}
	}
}

// waitEnded waits for job id's exit event and returns the job's Info,
// which must then be final (a caller told of an exit sees it recorded).
func (f *fixture) waitEnded(t *testing.T, id string) Info {
	t.Helper()
	events := f.jobEvents(id)
	defer events.stop()
	for {
		in, err := f.m.Get(f.owner, id)
		if err != nil {
			t.Fatalf("get %s: %v", id, err)
		}
		if in.State.Final() {
			return in
		}
		if events.exited {
			t.Fatalf("job %s: its exit event came, but Get says %+v", id, in)
		}
		if !events.next() {
			t.Fatalf("job %s never ended within %v; last %+v", id, testenv.HangBound, in)
		}
	}
}

// waitOutput waits until one of the job's newest lines contains want,
// reading them again on each of the job's events (its output is in the
// scrollback before its data event).
func (f *fixture) waitOutput(t *testing.T, id, want string) {
	t.Helper()
	events := f.jobEvents(id)
	defer events.stop()
	var last []Line
	for {
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
		if !events.next() {
			t.Fatalf("job %s never printed %q within %v; last lines %+v", id, want, testenv.HangBound, last)
		}
	}
}

// poll checks cond at a short pace until it holds, for what no event
// announces (the input probe); it fails after testenv.HangBound.
func poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(testenv.HangBound)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never %s within %v", what, testenv.HangBound)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// eventWaiter wakes a test's wait on the events of one job.
type eventWaiter struct {
	wake     chan struct{}
	exitSeen chan struct{}
	once     sync.Once
	exited   bool // an exit event was taken by next
	deadline *time.Timer
	stop     func()
}

// jobEvents subscribes to job id's events (before the caller first looks,
// so none is missed). The subscriber never blocks: it only marks that
// something happened, so data events cannot pile up behind it.
func (f *fixture) jobEvents(id string) *eventWaiter {
	w := &eventWaiter{wake: make(chan struct{}, 1), exitSeen: make(chan struct{}), deadline: time.NewTimer(testenv.HangBound)}
	unsub := f.m.Subscribe(func(ev Event) {
		if ev.ID != id {
			return
		}
		if ev.Kind == EventExit {
			w.once.Do(func() { close(w.exitSeen) })
		}
		select {
		case w.wake <- struct{}{}:
		default:
		}
	})
	w.stop = func() {
		unsub()
		w.deadline.Stop()
	}
	return w
}

// next waits for the job's next event; false when testenv.HangBound
// passed since the waiter was made.
func (w *eventWaiter) next() bool {
	select {
	case <-w.wake:
	case <-w.deadline.C:
		return false
	}
	select {
	case <-w.exitSeen:
		w.exited = true
	default:
	}
	return true
}

// assertGone fails unless pid no longer runs (a zombie counts as gone).
func assertGone(t *testing.T, pid int) {
	t.Helper()
	if pid <= 0 {
		return
	}
	if goneOrZombie(pid) {
		return
	}
	t.Errorf("process %d survived", pid)
}

func ptr[T any](v T) *T { return &v }
