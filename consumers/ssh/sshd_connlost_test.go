package ssh

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
)

// A lost connection is matchable: the session's calls fail with an error
// matching ErrConnectionLost (through the service too), and the status
// text says why the session ended.
func TestSSHDConnectionLostIsMatchable(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	b := newBackend(nil)
	svc := core.New(core.Options{})
	if _, err := svc.Register(b); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	defer func() { _ = svc.Shutdown(ctx) }()
	owner := core.NewOwner("test")
	tg := sshdTarget(t, srv, Auth{Password: srv.Password})
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: Type, Options: tg})
	if err != nil {
		t.Fatal(err)
	}
	direct := spawn(t, b, tg, core.BackendRequest{Command: []string{"sleep", "100"}})
	dt := newTerm(direct)
	srv.Kill()
	dt.waitEOF(t, 10*time.Second)
	if st := direct.ExitStatus(); st.String() != "exited (connection lost)" {
		t.Fatalf("status text %q (%+v)", st.String(), st)
	}
	_, werr := direct.Write(ctx, []byte("x"))
	_, serr := direct.Signal(ctx, core.SignalRequest{Signal: core.SIGTERM})
	rerr := direct.Resize(ctx, core.Size{Rows: 10, Cols: 10})
	for name, err := range map[string]error{"write": werr, "signal": serr, "resize": rerr} {
		if !errors.Is(err, ErrConnectionLost) || !errors.Is(err, core.ErrSessionExited) {
			t.Fatalf("%s after the loss: %v", name, err)
		}
	}
	closeSession(t, direct)

	// Through the service: once it saw the exit, its errors carry the cause.
	for {
		info, err := svc.Info(owner, sp.ID)
		if err != nil {
			t.Fatal(err)
		}
		if info.Status.Exited() {
			if info.Status.String() != "exited (connection lost)" {
				t.Fatalf("status %q", info.Status.String())
			}
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the service never saw the session end")
		case <-time.After(20 * time.Millisecond):
		}
	}
	_, err = svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: "true"})
	if !errors.Is(err, ErrConnectionLost) || !errors.Is(err, core.ErrSessionExited) || !strings.Contains(err.Error(), "connection lost") {
		t.Fatalf("send after the loss: %v", err)
	}
}
