package hardening

import (
	"context"
	"errors"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// flakyCleanup wraps a real backend so that the first Close of each of its
// sessions fails, as a teardown that hit a transient error would.
type flakyCleanup struct{ core.Backend }

var errTransient = errors.New("transient teardown failure")

func (f flakyCleanup) Type() string { return "flaky" }

func (f flakyCleanup) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	s, err := f.Backend.Spawn(ctx, req)
	if err != nil {
		return nil, err
	}
	return &flakySession{BackendSession: s}, nil
}

type flakySession struct {
	core.BackendSession
	closes atomic.Int32
}

func (s *flakySession) Close(ctx context.Context) error {
	if s.closes.Add(1) == 1 {
		return errTransient
	}
	return s.BackendSession.Close(ctx)
}

func TestCleanupFailureIsTypedAndRetried(t *testing.T) {
	svc := newService(t, core.Options{})
	if _, err := svc.Register(flakyCleanup{localpty.NewExec(localpty.ExecOptions{})}); err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t, testenv.HangBound)
	owner := core.NewOwner("faults")
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "flaky", Command: []string{"sleep", "1000"}, NoInitialWait: true})
	if err != nil {
		t.Fatal(err)
	}
	closed, err := svc.Close(ctx, owner, s.ID, "first try")
	var ce *core.CleanupError
	if closed || !errors.As(err, &ce) || !errors.Is(err, errTransient) || !errors.Is(err, core.ErrCleanupFailed) || core.CodeOf(err) != core.CodeCleanupFailed {
		t.Fatalf("first close = %v, %v; want a *CleanupError keeping the cause", closed, err)
	}
	if info, err := svc.Info(owner, s.ID); err != nil || info.Status.Exited() {
		t.Fatalf("after a failed close the session must still be there: %+v %v", info, err)
	}
	if closed, err := svc.Close(ctx, owner, s.ID, "retry"); !closed || err != nil {
		t.Fatalf("retried close = %v, %v; want true, nil", closed, err)
	}
	requireNoSurvivors(t, "after the retried close")
}

func TestChildKilledMidSend(t *testing.T) {
	svc := newService(t, core.Options{})
	ctx := testCtx(t, testenv.HangBound)
	owner := core.NewOwner("faults")
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "shell"})
	if err != nil {
		t.Fatal(err)
	}
	op, err := svc.Send(ctx, owner, s.ID, core.SendRequest{Data: "sleep 1000"})
	if err != nil {
		t.Fatal(err)
	}
	waitForCommand(t, "the send's sleep 1000", "sleep", "1000") // mid-send: the shell runs it
	if err := syscall.Kill(s.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	res, err := op.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.WaitReason != core.WaitSessionExit || res.Status != core.ExitedWithSignal("SIGKILL") {
		t.Fatalf("send settled as %s with %v; want session_exit, exited (SIGKILL)", res.WaitReason, res.Status)
	}
	if _, err := svc.Close(ctx, owner, s.ID, "done"); err != nil {
		t.Fatal(err)
	}
	requireNoSurvivors(t, "after the shell was killed mid-send") // the orphaned sleep too
}

// TestMCPClientVanishesMidSend starts the real server binary, begins a
// send that never finishes, and drops the connection: the server must close
// the session, exit, and leave no process behind.
func TestMCPClientVanishesMidSend(t *testing.T) {
	bin := buildServer(t)
	ctx := testCtx(t, 2*time.Minute)
	// The test starts and waits for the server itself, and learns of its
	// exit from a channel closed after cmd.Wait returned: reading
	// cmd.ProcessState while another goroutine's Wait may still write it
	// is a data race (the SDK's CommandTransport gives up on its own Wait
	// after its terminate durations and leaves it running).
	srv := startServer(t, bin, "mcp", "--structured-results", "--log-level", "error")
	client := mcp.NewClient(&mcp.Implementation{Name: "vanishing", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: srv.stdout, Writer: srv.stdin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "pty_open", Arguments: map[string]any{"command": "bash"}})
	if err != nil || res.IsError {
		t.Fatalf("pty_open: %v %+v", err, res)
	}
	id := res.StructuredContent.(map[string]any)["sessionId"].(string)
	callCtx, cancelCall := context.WithCancel(ctx)
	defer cancelCall()
	go func() {
		_, _ = cs.CallTool(callCtx, &mcp.CallToolParams{Name: "pty_send", Arguments: map[string]any{"id": id, "data": "sleep 1000"}})
	}()
	waitForCommand(t, "the send's sleep 1000", "sleep", "1000")
	// The client vanishes: its ends of the pipes close under the live send.
	_ = cs.Close()
	select {
	case <-srv.exited:
	case <-time.After(testenv.HangBound):
		t.Fatalf("the server did not exit within %v after its client vanished", testenv.HangBound)
	}
	deadline := time.Now().Add(testenv.HangBound)
	for time.Now().Before(deadline) && len(survivors()) > 0 {
		time.Sleep(50 * time.Millisecond)
	}
	if left := survivors(); len(left) > 0 {
		t.Fatalf("after the client vanished, %d processes survive: %v", len(left), left)
	}
	t.Logf("server exit: %v", srv.cmd.ProcessState) // after <-srv.exited: Wait has returned
}
