package remote_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/remote"
	"github.com/ptyseam/ptyseam/testharness"
)

// callAfterExitAttempts bounds the sessions a call-after-exit test runs:
// each attempt's first failed call may come before or after the session
// learnt the exit (the agent's answer to the wait travels on another
// stream). Every attempt must pass.
const callAfterExitAttempts = 8

// A signal sent right after the program exited, which the agent refuses
// (its terminal has no foreground group any more) before the session has
// learnt the exit, fails with the session's own SESSION_EXITED error that
// says what to do next, never with the agent's words ("agent: the
// terminal has no foreground process group"), and the exit is then
// known. Each attempt signals until a signal fails. (A resize or a write
// after the exit does not fail: the agent's terminal stays open until
// Close, as a local session's does.)
func TestSignalAfterExitOverPipe(t *testing.T) {
	c, _ := connectPipe(t)
	b := c.Backend("exec", remote.AgentExec)
	for i := range callAfterExitAttempts {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		s, err := b.Spawn(ctx, core.BackendRequest{Command: []string{"sh", "-c", "exit 3"}, Size: core.DefaultSize})
		if err != nil {
			t.Fatal(err)
		}
		go func() { _, _ = io.Copy(io.Discard, s) }()
		calls := 0
		for err == nil {
			_, err = s.Signal(ctx, core.SignalRequest{Signal: core.SIGCONT})
			calls++
		}
		if ctx.Err() != nil {
			t.Fatalf("attempt %d: no signal failed within %v (%d signals): %v", i, waitLimit, calls, err)
		}
		t.Logf("attempt %d: signal %d failed: %v", i, calls, err)
		testharness.WantEnded(t, ctx, s, err, "agent:", 3)
		if err := s.Close(ctx); err != nil {
			t.Fatalf("Close: %v", err)
		}
		cancel()
	}
}

// A resize or a write that the agent's backend refuses because the
// program has ended (as the ssh and docker backends do once they know the
// exit), before the session here has learnt the exit, fails as a late
// signal does: with the session's own SESSION_EXITED error, never the
// agent's words. The agent runs in this process over an in-memory pipe,
// with a backend whose sessions refuse both calls once their program
// exited.
func TestResizeAndWriteAfterExitRefusedByTheAgent(t *testing.T) {
	hostEnd, agentEnd := net.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- remote.Serve(context.Background(), agentEnd, remote.AgentOptions{
			Backends: []core.Backend{refusingBackend{localpty.NewExec(localpty.ExecOptions{})}},
			Logger:   slog.New(slog.DiscardHandler)})
	}()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c, err := remote.Connect(ctx, hostEnd)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = c.Close()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	}()
	b := c.Backend("exec", remote.AgentExec)
	for _, call := range []string{"resize", "write"} {
		for i := range callAfterExitAttempts {
			s, err := b.Spawn(ctx, core.BackendRequest{Command: []string{"sh", "-c", "exit 3"}, Size: core.DefaultSize})
			if err != nil {
				t.Fatal(err)
			}
			go func() { _, _ = io.Copy(io.Discard, s) }()
			calls := 0
			for err == nil {
				if call == "resize" {
					err = s.Resize(ctx, core.Size{Rows: 24 + uint16(calls%2), Cols: 80})
				} else {
					_, err = s.Write(ctx, []byte("x"))
				}
				calls++
			}
			if ctx.Err() != nil {
				t.Fatalf("%s attempt %d: no call failed within %v (%d calls): %v", call, i, waitLimit, calls, err)
			}
			testharness.WantEnded(t, ctx, s, err, refusal, 3)
			if err := s.Close(ctx); err != nil {
				t.Fatalf("Close: %v", err)
			}
		}
	}
}

// refusal is what refusingSession says.
const refusal = "the test backend's program has ended"

// refusingBackend's sessions refuse a resize and a write once their
// program has exited.
type refusingBackend struct{ core.Backend }

func (b refusingBackend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	s, err := b.Backend.Spawn(ctx, req)
	if err != nil {
		return nil, err
	}
	return refusingSession{s}, nil
}

type refusingSession struct{ core.BackendSession }

func (s refusingSession) ended() error {
	select {
	case <-s.Exited():
		return core.Errorf(core.CodeSessionExited, refusal)
	default:
		return nil
	}
}

func (s refusingSession) Resize(ctx context.Context, size core.Size) error {
	if err := s.ended(); err != nil {
		return err
	}
	return s.BackendSession.Resize(ctx, size)
}

func (s refusingSession) Write(ctx context.Context, p []byte) (int, error) {
	if err := s.ended(); err != nil {
		return 0, err
	}
	return s.BackendSession.Write(ctx, p)
}
