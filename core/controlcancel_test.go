package core_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// blockingBackend runs real programs with the local exec backend, but its
// sessions' Signal and Resize block until the caller's context ends and
// then return the context's bare error, as a remote backend's round trip
// does when the caller gives up.
type blockingBackend struct {
	inner   core.Backend
	entered chan struct{} // told, without blocking, when a call waits
}

func (b blockingBackend) Type() string { return "blocking" }

func (b blockingBackend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	s, err := b.inner.Spawn(ctx, req)
	if err != nil {
		return nil, err
	}
	return blockingSession{s, b.entered}, nil
}

type blockingSession struct {
	core.BackendSession
	entered chan struct{}
}

func (s blockingSession) block(ctx context.Context) error {
	select {
	case s.entered <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return ctx.Err()
}

func (s blockingSession) Signal(ctx context.Context, _ core.SignalRequest) (core.SignalResult, error) {
	return core.SignalResult{}, s.block(ctx)
}

func (s blockingSession) Resize(ctx context.Context, _ core.Size) error { return s.block(ctx) }

// A control call whose caller gave up is CANCELLED, matching the
// context's error, never INTERNAL: whether the backend blocked until the
// context ended (blocking) or found it ended on entry (the local shell).
func TestControlCallsCancelled(t *testing.T) {
	svc := newService(t, core.Options{})
	entered := make(chan struct{}, 1)
	if _, err := svc.Register(blockingBackend{localpty.NewExec(localpty.ExecOptions{}), entered}); err != nil {
		t.Fatal(err)
	}
	owner := core.NewOwner("agent")
	blocking, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "blocking", Command: []string{"cat"}})
	if err != nil {
		t.Fatal(err)
	}
	shell := spawnShell(t, svc, owner)

	calls := map[string]func(context.Context, core.SessionID) error{
		"signal": func(ctx context.Context, id core.SessionID) error {
			_, err := svc.Signal(ctx, owner, id, core.SignalRequest{Signal: core.SIGINT})
			return err
		},
		"resize": func(ctx context.Context, id core.SessionID) error {
			return svc.Resize(ctx, owner, id, core.Size{Rows: 30, Cols: 100})
		},
	}
	ends := map[string]struct {
		ctx  func() (context.Context, context.CancelFunc)
		want error
	}{
		"cancelled": {func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			go func() { // ends while the blocking backend waits
				select {
				case <-entered:
					cancel()
				case <-ctx.Done():
				}
			}()
			return ctx, cancel
		}, context.Canceled},
		"deadline": {func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), time.Millisecond)
		}, context.DeadlineExceeded},
		"ended on entry": {func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}, context.Canceled},
	}
	for _, sess := range []struct {
		name string
		id   core.SessionID
	}{{"blocking", blocking.ID}, {"shell", shell.ID}} {
		for op, call := range calls {
			for end, e := range ends {
				if sess.name == "shell" && end != "ended on entry" {
					continue // the local shell answers at once
				}
				t.Run(sess.name+"/"+op+"/"+end, func(t *testing.T) {
					defer func() { // a call that did not wait for the cancel leaves word behind
						select {
						case <-entered:
						default:
						}
					}()
					ctx, cancel := e.ctx()
					defer cancel()
					err := call(ctx, sess.id)
					if !errors.Is(err, core.ErrCancelled) || !errors.Is(err, e.want) {
						t.Fatalf("err = %v (code %s), want CANCELLED matching %v", err, core.CodeOf(err), e.want)
					}
					var ce *core.Error
					if !errors.As(err, &ce) || ce.Op != op || ce.Session != sess.id {
						t.Fatalf("err = %v, want one naming %s and the session", err, op)
					}
				})
			}
		}
	}
	// The session is still usable: nothing a cancelled call did broke it.
	if err := svc.Resize(ctxT(t), owner, shell.ID, core.Size{Rows: 24, Cols: 80}); err != nil {
		t.Fatalf("resize after the cancelled calls: %v", err)
	}
}
