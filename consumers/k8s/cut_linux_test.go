package k8s

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
	"github.com/ptyseam/ptyseam/remote/remotetest"
	"k8s.io/client-go/rest"
)

// Cutting the backend's connections to the API server mid-send ends the
// send within a second with session_exit and ReasonAPIServerLost, and
// later calls fail with errors matching ErrAPIServerLost and
// remote.ErrConnectionLost; the agent, whose stdin ended, ends the
// session's processes in the pod; once the API server is reachable again
// Close deletes the pod.
func TestAPIServerCutMidSend(t *testing.T) {
	_, c := newBackend(t)
	p := startAPIProxy(t, c.Server)
	cfg := rest.CopyConfig(c.Config)
	cfg.Host = "https://" + p.addr
	svc := remotetest.NewService(t, backendOn(t, cfg))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	owner := core.NewOwner("test")
	tg := shellTarget()
	tg.Shell = []string{"/bin/bash"}
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: Type, Options: tg})
	if err != nil {
		t.Fatal(err)
	}
	sleep := fmt.Sprintf("sleep 1%d", time.Now().UnixNano()%1000000)
	op, err := svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: sleep, QuietWindow: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 20*time.Second)
	waitHostProcs(t, wctx, sleep, true)
	wcancel()
	p.cut()
	cut := time.Now()
	res, err := op.Wait(ctx)
	ended := time.Since(cut)
	t.Logf("the send ended %v after the cut: %s", ended, res.Status)
	if err != nil || res.WaitReason != core.WaitSessionExit || res.Status.Reason != ReasonAPIServerLost {
		t.Fatalf("the send after the cut: %+v, %v; want session_exit, exited (%s)", res, err, ReasonAPIServerLost)
	}
	if ended > time.Second {
		t.Fatalf("the send ended %v after the cut, want within a second", ended)
	}
	_, err = svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: "true"})
	if !errors.Is(err, core.ErrSessionExited) || !errors.Is(err, ErrAPIServerLost) || !errors.Is(err, remote.ErrConnectionLost) {
		t.Fatalf("a send after the cut: %v; want SESSION_EXITED matching ErrAPIServerLost and remote.ErrConnectionLost", err)
	}
	// The exec's end reached the agent (its stdin ended), which ended
	// what it started without anyone closing the session.
	gctx, gcancel := context.WithTimeout(ctx, 10*time.Second)
	waitHostProcs(t, gctx, sleep, false)
	gcancel()
	t.Logf("the agent ended the session's processes %v after the cut", time.Since(cut))
	p.restore(t)
	before := sessionPods(t, c)
	if _, err := svc.Close(ctx, owner, sp.ID, "done"); err != nil {
		t.Fatal(err)
	}
	if after := sessionPods(t, c); len(after) != len(before)-1 {
		t.Fatalf("session pods after Close: %v, before it: %v", after, before)
	}
}
