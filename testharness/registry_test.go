package testharness_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/testharness"
)

func newRegistry(t *testing.T, opts core.Options) *testharness.Registry {
	t.Helper()
	r := testharness.NewRegistryWithOptions(opts, localpty.NewExec(localpty.ExecOptions{}))
	t.Cleanup(func() {
		if err := r.Shutdown(context.Background()); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	})
	return r
}

func execReq(t *testing.T, args ...string) core.SpawnRequest {
	return core.SpawnRequest{Type: localpty.TypeExec, Command: testharness.Child(t, args...)}
}

func TestRegistryMisconfigured(t *testing.T) {
	ctx := context.Background()
	owner := core.NewOwner("t")
	exec := localpty.NewExec(localpty.ExecOptions{})
	for _, c := range []struct {
		name     string
		backends []core.Backend
		code     core.Code
	}{
		{"nil backend", []core.Backend{nil}, core.CodeInvalidArgument},
		{"duplicate type", []core.Backend{exec, exec}, core.CodeDuplicateBackend},
		{"OnSpawn hook", []core.Backend{exec}, core.CodeInvalidArgument},
	} {
		var opts core.Options
		if c.name == "OnSpawn hook" {
			opts.OnSpawn = func(core.SessionInfo, *core.Owner, *core.Tap) {}
		}
		r := testharness.NewRegistryWithOptions(opts, c.backends...)
		_, err := r.Spawn(ctx, owner, execReq(t, "echo-repl"))
		if core.CodeOf(err) != c.code {
			t.Errorf("%s: Spawn error %v, want %s", c.name, err, c.code)
		}
		if err := r.Shutdown(ctx); err != nil {
			t.Errorf("%s: Shutdown: %v", c.name, err)
		}
	}

	r := newRegistry(t, core.Options{})
	if _, err := r.Register(localpty.NewExec(localpty.ExecOptions{})); !errors.Is(err, core.ErrDuplicateBackend) {
		t.Errorf("Register of a taken type: %v", err)
	}
	unregister, err := r.Register(localpty.NewShell(localpty.ShellOptions{}))
	if err != nil {
		t.Fatalf("Register: %v", err)
	}
	unregister()
	unregister()
	_, err = r.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeShell})
	if !errors.Is(err, core.ErrNoBackend) {
		t.Errorf("Spawn after unregister: %v, want NO_BACKEND", err)
	}
}

func TestRegistryShutdown(t *testing.T) {
	ctx := context.Background()
	r := testharness.NewRegistry(localpty.NewExec(localpty.ExecOptions{}))
	owner := core.NewOwner("t")
	res, err := r.Spawn(ctx, owner, execReq(t, "ignore-term"))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if testharness.ProcessAlive(res.PID) {
		t.Errorf("pid %d survived Shutdown", res.PID)
	}
	if _, err := r.Spawn(ctx, owner, execReq(t, "echo-repl")); !errors.Is(err, core.ErrServiceDisposing) {
		t.Errorf("Spawn after Shutdown: %v, want SERVICE_DISPOSING", err)
	}
	if closed, err := r.Close(ctx, owner, res.ID, "again"); closed || err != nil {
		t.Errorf("Close after Shutdown = %v, %v; want false, nil", closed, err)
	}
}

// TestRegistrySettling checks that each way a send settles reaches the
// caller through the registry.
func TestRegistrySettling(t *testing.T) {
	r := newRegistry(t, core.Options{})
	ctx := context.Background()
	owner := core.NewOwner("t")
	res, err := r.Spawn(ctx, owner, execReq(t, "echo-repl", "--marker"))
	if err != nil {
		t.Fatal(err)
	}
	wait := func(req core.SendRequest) core.SendResult {
		t.Helper()
		op, err := r.Send(ctx, owner, res.ID, req)
		if err != nil {
			t.Fatalf("Send: %v", err)
		}
		out, err := op.Wait(ctx)
		if err != nil {
			t.Fatalf("Wait: %v", err)
		}
		return out
	}
	if out := wait(core.SendRequest{Data: "hi"}); out.WaitReason != core.WaitPrompt || out.Delta != "hi\nhi\n> " {
		t.Errorf("prompt: %+v", out)
	}
	if out := wait(core.SendRequest{Data: "sleep 1h", Timeout: 100 * time.Millisecond, QuietWindow: time.Hour}); out.WaitReason != core.WaitTimeout || out.Delta != "sleep 1h\nsleeping\n" {
		t.Errorf("timeout: %+v", out)
	}
	// The REPL still sleeps: a send cancelled by its context interrupts it.
	cctx, cancel := context.WithCancel(ctx)
	op, err := r.Send(cctx, owner, res.ID, core.SendRequest{Data: "queued", QuietWindow: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if out, err := op.Wait(ctx); err != nil || out.WaitReason != core.WaitCancelled {
		t.Errorf("cancelled by ctx: %+v, %v", out, err)
	}
	if _, err := r.Send(cctx, owner, res.ID, core.SendRequest{Data: "x", NoSubmit: true}); !errors.Is(err, core.ErrCancelled) || !errors.Is(err, context.Canceled) {
		t.Errorf("Send with a done ctx: %v, want CANCELLED", err)
	}
	// A close settles a live send as session_exit.
	op, err = r.Send(ctx, owner, res.ID, core.SendRequest{Data: "sleep 1h", QuietWindow: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Close(ctx, owner, res.ID, "t"); err != nil {
		t.Fatal(err)
	}
	if out, err := op.Wait(ctx); err != nil || out.WaitReason != core.WaitSessionExit {
		t.Errorf("closed under a send: %+v, %v", out, err)
	}
}

func TestRegistrySessionLimit(t *testing.T) {
	r := newRegistry(t, core.Options{MaxSessionsPerOwner: 1})
	ctx := context.Background()
	owner := core.NewOwner("t")
	req := execReq(t, "echo-repl")
	req.NoInitialWait = true
	if _, err := r.Spawn(ctx, owner, req); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Spawn(ctx, owner, req); !errors.Is(err, core.ErrTooManySessions) {
		t.Errorf("second Spawn: %v, want TOO_MANY_SESSIONS", err)
	}
	if _, err := r.Spawn(ctx, core.NewOwner("u"), req); err != nil {
		t.Errorf("another owner's Spawn: %v", err)
	}
}

func TestRegistrySpawnCancelled(t *testing.T) {
	r := newRegistry(t, core.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	owner := core.NewOwner("t")
	req := execReq(t, "echo-repl")
	req.Name = "n"
	if _, err := r.Spawn(ctx, owner, req); !errors.Is(err, core.ErrCancelled) {
		t.Errorf("Spawn with a done ctx: %v, want CANCELLED", err)
	}
	if _, err := r.Spawn(context.Background(), owner, req); err != nil {
		t.Errorf("the name of a cancelled spawn stayed reserved: %v", err)
	}
}

// TestRegistryMatchesService runs one scripted conversation on the
// registry and on the real service and compares every result the two
// report: the cleaned output of each send, the reasons, and the pages.
func TestRegistryMatchesService(t *testing.T) {
	svc := core.New(core.Options{Logger: slog.New(slog.DiscardHandler)})
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Shutdown(context.Background()) })
	reg := newRegistry(t, core.Options{})
	script := []string{"one", "two words", "tab\there", "ünïcödé ✓", "", "sleep 1ms", strings.Repeat("long ", 100)}
	var transcripts [2][]string
	for i, terms := range []core.Terminals{reg, svc} {
		ctx := context.Background()
		owner := core.NewOwner("diff")
		res, err := terms.Spawn(ctx, owner, execReq(t, "echo-repl", "--marker"))
		if err != nil {
			t.Fatal(err)
		}
		tr := []string{"initial " + res.InitialOutput}
		for _, line := range script {
			op, err := terms.Send(ctx, owner, res.ID, core.SendRequest{Data: line, QuietWindow: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			out, err := op.Wait(ctx)
			if err != nil {
				t.Fatal(err)
			}
			tr = append(tr, string(out.WaitReason)+" "+out.Delta)
		}
		for _, req := range []core.PageRequest{{Start: 0, Count: 3}, {Start: 5, Count: 4}, {Newest: true, Count: 2}, {Start: 100, Count: 1}} {
			p, err := terms.Read(owner, res.ID, req)
			if err != nil {
				t.Fatal(err)
			}
			tr = append(tr, strings.Join(p.Lines, "|")+" "+fmtPage(p))
		}
		transcripts[i] = tr
		if _, err := terms.Close(ctx, owner, res.ID, "diff"); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("registry transcript: %q", transcripts[0])
	if len(transcripts[0]) != len(transcripts[1]) {
		t.Errorf("transcripts of %d and %d steps", len(transcripts[0]), len(transcripts[1]))
	}
	for i := range transcripts[1] {
		if i >= len(transcripts[0]) || transcripts[0][i] != transcripts[1][i] {
			t.Errorf("step %d: registry %q, service %q", i, at(transcripts[0], i), transcripts[1][i])
		}
	}
}

func fmtPage(p core.PageResult) string {
	return fmt.Sprintf("[%d,%d) total %d first %d dropped %d truncated %v partial %v", p.Start, p.End, p.Total, p.First, p.Dropped, p.Truncated, p.Partial)
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "<missing>"
}

// gatedBackend holds each Spawn until the test opens the gate, so that a
// test can act while a spawn is in flight.
type gatedBackend struct {
	core.Backend
	entered chan struct{}
	gate    chan struct{}
	pid     chan int
}

func (b gatedBackend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	close(b.entered)
	<-b.gate
	s, err := b.Backend.Spawn(ctx, req)
	if err == nil {
		b.pid <- s.PID()
	}
	return s, err
}

// TestRegistryGoneDuringSpawn: a spawn whose owner was disposed, or whose
// registry began shutting down, while the program started fails with that
// code and closes the program it started.
func TestRegistryGoneDuringSpawn(t *testing.T) {
	for _, c := range []struct {
		name string
		code core.Code
		gone func(ctx context.Context, r *testharness.Registry, owner *core.Owner) error
	}{
		{"owner disposed", core.CodeOwnerDisposed, func(ctx context.Context, r *testharness.Registry, owner *core.Owner) error {
			return r.DisposeOwner(ctx, owner)
		}},
		{"shutdown", core.CodeServiceDisposing, func(ctx context.Context, r *testharness.Registry, _ *core.Owner) error {
			// A done context: Shutdown begins (new spawns are refused) and
			// returns instead of waiting for the spawn in flight.
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			if err := r.Shutdown(cctx); !errors.Is(err, core.ErrCancelled) {
				return fmt.Errorf("Shutdown with a done context: %v, want CANCELLED", err)
			}
			return nil
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			b := gatedBackend{Backend: localpty.NewExec(localpty.ExecOptions{}), entered: make(chan struct{}), gate: make(chan struct{}), pid: make(chan int, 1)}
			r := testharness.NewRegistry(b)
			t.Cleanup(func() {
				if err := r.Shutdown(ctx); err != nil {
					t.Errorf("Shutdown: %v", err)
				}
			})
			owner := core.NewOwner("t")
			req := execReq(t, "echo-repl")
			req.Name = "n"
			spawned := make(chan error, 1)
			go func() {
				_, err := r.Spawn(ctx, owner, req)
				spawned <- err
			}()
			<-b.entered
			if err := c.gone(ctx, r, owner); err != nil {
				t.Fatal(err)
			}
			close(b.gate)
			if err := <-spawned; core.CodeOf(err) != c.code {
				t.Errorf("Spawn: %v, want %s", err, c.code)
			}
			if pid := <-b.pid; testharness.ProcessAlive(pid) {
				t.Errorf("pid %d survived the abandoned spawn", pid)
			}
			if list, err := r.List(core.NewOwner("other")); err != nil || len(list) != 0 {
				t.Errorf("List of another owner: %v, %v", list, err)
			}
		})
	}
}
