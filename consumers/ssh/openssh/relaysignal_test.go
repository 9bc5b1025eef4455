package openssh_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/openssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// send sends line and waits for it to settle.
func send(t *testing.T, ctx context.Context, svc *core.Service, owner *core.Owner, id core.SessionID, line string, quiet time.Duration) core.SendResult {
	t.Helper()
	op, err := svc.Send(ctx, owner, id, core.SendRequest{Data: line, QuietWindow: quiet})
	if err != nil {
		t.Fatalf("send %q: %v", line, err)
	}
	res, err := op.Wait(ctx)
	if err != nil {
		t.Fatalf("send %q: %v", line, err)
	}
	return res
}

// startSleeper runs a remote program that says "ready" once it holds the
// terminal's foreground, and waits for that.
func startSleeper(t *testing.T, ctx context.Context, svc *core.Service, owner *core.Owner, id core.SessionID) {
	t.Helper()
	res := send(t, ctx, svc, owner, id, `sh -c 'echo rea""dy; exec sleep 100'`, 300*time.Millisecond)
	if !strings.Contains(res.Delta, "ready") || res.Status.Exited() {
		t.Fatalf("sleeper: %+v", res)
	}
}

// A relayed login (the local ssh client) gets SIGINT, SIGQUIT and SIGTSTP
// as the terminal's control characters, for the remote foreground job; a
// cancelled send interrupts the same way; other signals are refused. The
// ssh client and the remote shell live on throughout.
func TestLoginRelaySignals(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	svc, _ := newService(t)
	owner := core.NewOwner("test")
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	kh := filepath.Join(t.TempDir(), "known_hosts")
	if err := srv.WriteKnownHosts(kh); err != nil {
		t.Fatal(err)
	}
	s, err := openssh.Login(ctx, svc, owner, openssh.Options{Host: srv.Host, Port: srv.Port, User: srv.User, KnownHostsFile: kh,
		Secrets: func(context.Context, openssh.Prompt) (string, error) { return srv.Password, nil }})
	if err != nil {
		t.Fatalf("login: %v", err)
	}
	alive := func(what string) {
		t.Helper()
		res := send(t, ctx, svc, owner, s.ID, "echo al''ive-$$", 0)
		if res.WaitReason != core.WaitPrompt || !strings.Contains(res.Delta, "alive-") || res.Status.Exited() {
			t.Fatalf("after %s the remote shell is gone: %+v", what, res)
		}
	}
	for _, c := range []struct {
		sig  core.Signal
		code string
	}{{core.SIGINT, "130"}, {core.SIGQUIT, "131"}, {core.SIGTSTP, "148"}} {
		startSleeper(t, ctx, svc, owner, s.ID)
		res, err := svc.Signal(ctx, owner, s.ID, core.SignalRequest{Signal: c.sig})
		if err != nil || !res.Delivered || res.Method != "tty-char" {
			t.Fatalf("%s: %+v %v", c.sig, res, err)
		}
		out := send(t, ctx, svc, owner, s.ID, "echo rc=$?", 0)
		if !strings.Contains(out.Delta, "rc="+c.code) {
			t.Fatalf("%s: the remote job did not get it: %+v", c.sig, out)
		}
		if c.sig == core.SIGTSTP {
			send(t, ctx, svc, owner, s.ID, "kill -9 %1", 0)
		}
		alive(string(c.sig))
	}

	// A cancelled send interrupts the remote job, not the client.
	op, err := svc.Send(ctx, owner, s.ID, core.SendRequest{Data: "sleep 100"})
	if err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(500*time.Millisecond, func() { op.Cancel() })
	res, err := op.Wait(ctx)
	if err != nil || res.WaitReason != core.WaitCancelled || res.Status.Exited() {
		t.Fatalf("cancelled send: %+v %v", res, err)
	}
	if out := send(t, ctx, svc, owner, s.ID, "echo rc=$?", 0); !strings.Contains(out.Delta, "rc=130") {
		t.Fatalf("after the cancel: %+v", out)
	}
	alive("a cancelled send")

	// Signals that would only hit the local client are refused, typed.
	for _, sig := range []core.Signal{core.SIGTERM, core.SIGHUP, core.SIGKILL, core.SIGCONT} {
		_, err := svc.Signal(ctx, owner, s.ID, core.SignalRequest{Signal: sig})
		if !errors.Is(err, core.ErrSignalRefused) || !strings.Contains(err.Error(), "relay") {
			t.Fatalf("%s: %v", sig, err)
		}
	}
	alive("refused signals")
	if _, err := svc.Close(ctx, owner, s.ID, "done"); err != nil {
		t.Fatal(err)
	}
}
