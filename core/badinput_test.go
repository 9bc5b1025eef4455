package core_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// TestBadInput feeds every entry point malformed input and checks the typed
// error, then checks the service still serves a healthy session.
func TestBadInput(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	healthy := spawnShell(t, svc, owner)
	exited, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Command: []string{"true"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Wait(ctxT(t), owner, exited.ID); err != nil {
		t.Fatal(err)
	}
	disposed := core.NewOwner("gone")
	if err := svc.DisposeOwner(ctxT(t), disposed); err != nil {
		t.Fatal(err)
	}
	cancelledCtx, cancel := context.WithCancel(context.Background())
	cancel()
	ctx := ctxT(t)
	huge := strings.Repeat("x", 10<<20)

	cases := []struct {
		name string
		want error
		call func() error
	}{
		{"spawn nil owner", core.ErrInvalidArgument, func() error { _, err := svc.Spawn(ctx, nil, core.SpawnRequest{}); return err }},
		{"spawn unknown backend", core.ErrNoBackend, func() error { _, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "nope"}); return err }},
		{"spawn empty exec command", core.ErrInvalidArgument, func() error {
			_, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "exec"})
			return err
		}},
		{"spawn nonexistent command", core.ErrSpawnFailed, func() error {
			_, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "exec", Command: []string{"/no/such/program"}})
			return err
		}},
		{"spawn nonexistent dir", core.ErrInvalidArgument, func() error {
			_, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "exec", Command: []string{"true"}, Dir: "/no/such/dir"})
			return err
		}},
		{"spawn env A=B name", core.ErrInvalidArgument, func() error {
			_, err := svc.Spawn(ctx, owner, core.SpawnRequest{Env: []string{"A=B=C", "X Y=1"}})
			return err
		}},
		{"spawn empty env name", core.ErrInvalidArgument, func() error { _, err := svc.Spawn(ctx, owner, core.SpawnRequest{Env: []string{"=v"}}); return err }},
		{"spawn cancelled ctx", core.ErrCancelled, func() error { _, err := svc.Spawn(cancelledCtx, owner, core.SpawnRequest{}); return err }},
		{"spawn disposed owner", core.ErrOwnerDisposed, func() error { _, err := svc.Spawn(ctx, disposed, core.SpawnRequest{}); return err }},
		{"send unknown id", core.ErrNoSession, func() error {
			_, err := svc.Send(ctx, owner, "pty_doesnotexist", core.SendRequest{Data: "x", NoSubmit: true})
			return err
		}},
		{"send 10 MiB", core.ErrInvalidArgument, func() error {
			_, err := svc.Send(ctx, owner, healthy.ID, core.SendRequest{Data: huge, NoSubmit: true})
			return err
		}},
		{"send nothing", core.ErrInvalidArgument, func() error { _, err := svc.Send(ctx, owner, healthy.ID, core.SendRequest{NoSubmit: true}); return err }},
		{"send negative timeout", core.ErrInvalidArgument, func() error {
			_, err := svc.Send(ctx, owner, healthy.ID, core.SendRequest{Data: "x", Timeout: -1, NoSubmit: true})
			return err
		}},
		{"send to exited", core.ErrSessionExited, func() error {
			_, err := svc.Send(ctx, owner, exited.ID, core.SendRequest{Data: "x", NoSubmit: true})
			return err
		}},
		{"send cancelled ctx", core.ErrCancelled, func() error {
			_, err := svc.Send(cancelledCtx, owner, healthy.ID, core.SendRequest{Data: "x", NoSubmit: true})
			return err
		}},
		{"read negative count", core.ErrInvalidArgument, func() error { _, err := svc.Read(owner, healthy.ID, core.PageRequest{Count: -1}); return err }},
		{"read huge count", core.ErrInvalidArgument, func() error { _, err := svc.Read(owner, healthy.ID, core.PageRequest{Count: 1 << 30}); return err }},
		{"read negative start", core.ErrInvalidArgument, func() error { _, err := svc.Read(owner, healthy.ID, core.PageRequest{Start: -5}); return err }},
		{"signal unknown", core.ErrInvalidArgument, func() error {
			_, err := svc.Signal(ctx, owner, healthy.ID, core.SignalRequest{Signal: "SIGUSR1"})
			return err
		}},
		{"signal empty", core.ErrInvalidArgument, func() error { _, err := svc.Signal(ctx, owner, healthy.ID, core.SignalRequest{}); return err }},
		{"sigkill to the shell", core.ErrSignalRefused, func() error {
			_, err := svc.Signal(ctx, owner, healthy.ID, core.SignalRequest{Signal: core.SIGKILL})
			return err
		}},
		{"signal exited", core.ErrSessionExited, func() error {
			_, err := svc.Signal(ctx, owner, exited.ID, core.SignalRequest{Signal: core.SIGINT})
			return err
		}},
		{"resize zero", core.ErrInvalidArgument, func() error { return svc.Resize(ctx, owner, healthy.ID, core.Size{}) }},
		{"resize huge", core.ErrInvalidArgument, func() error { return svc.Resize(ctx, owner, healthy.ID, core.Size{Rows: 60000, Cols: 80}) }},
		{"close unknown", core.ErrNoSession, func() error { _, err := svc.Close(ctx, owner, "pty_nope", "x"); return err }},
		{"list nil owner", core.ErrInvalidArgument, func() error { _, err := svc.List(nil); return err }},
		{"register empty type", core.ErrInvalidArgument, func() error { _, err := svc.Register(typeOnly("")); return err }},
		{"register duplicate", core.ErrDuplicateBackend, func() error { _, err := svc.Register(typeOnly("shell")); return err }},
	}
	for _, c := range cases {
		err := c.call()
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	if svc.HasOwnerActivity(disposed) {
		t.Fatalf("a refused spawn left activity behind")
	}
	// NUL bytes and invalid UTF-8 are written as they are.
	res := send(t, svc, owner, healthy.ID, "printf 'ok\\n' # \x00\xff\xfe")
	if !strings.Contains(res.Delta, "ok") {
		t.Fatalf("binary data broke the session: %q", res.Delta)
	}
	res = send(t, svc, owner, healthy.ID, "echo healthy")
	if !strings.Contains(res.Delta, "healthy") || res.WaitReason != core.WaitPrompt {
		t.Fatalf("service unhealthy after bad input: %+v", res)
	}
	list, err := svc.List(owner)
	if err != nil || len(list) != 2 {
		t.Fatalf("failed spawns left sessions behind: %d listed, %v", len(list), err)
	}
}

// typeOnly is a backend that only has a type; registering it must be
// refused before it is ever used.
type typeOnly string

func (b typeOnly) Type() string { return string(b) }
func (b typeOnly) Spawn(context.Context, core.BackendRequest) (core.BackendSession, error) {
	return nil, errors.New("never spawns")
}
