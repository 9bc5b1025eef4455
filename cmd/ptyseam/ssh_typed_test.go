package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// An ssh typed into a local terminal puts a shell without a prompt marker
// on it: its commands settle on the far side's prompt (remote_prompt), not
// after the quiet window, and a question asked there (a hidden password
// read, a [y/N]) never settles as a prompt.
func TestSSHTypedInATerminalSettlesOnTheRemotePrompt(t *testing.T) {
	srv, key, kh := loopbackKey(t)
	svc := core.New(core.Options{})
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(func() {
		if err := svc.Shutdown(ctx); err != nil {
			t.Error(err)
		}
		cancel()
	})
	owner := core.NewOwner("model")
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeShell})
	if err != nil {
		t.Fatal(err)
	}
	send := func(data string, quiet time.Duration) core.SendResult {
		t.Helper()
		op, err := svc.Send(ctx, owner, s.ID, core.SendRequest{Data: data, QuietWindow: quiet})
		if err != nil {
			t.Fatal(err)
		}
		r, err := op.Wait(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	login := send(fmt.Sprintf("ssh -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile=%s -i %s -p %d %s@%s",
		kh, key, srv.Port, srv.User, srv.Host), 0)
	if login.WaitReason != core.WaitRemotePrompt || login.Foreground == nil || login.Foreground.Name != "ssh" {
		t.Fatalf("the login settled %s (foreground %+v): %q", login.WaitReason, login.Foreground, login.Delta)
	}
	var took []time.Duration
	for i := range 20 {
		start := time.Now()
		r := send("true", 0)
		took = append(took, time.Since(start))
		if r.WaitReason != core.WaitRemotePrompt {
			t.Fatalf("remote command %d settled %s: %q", i, r.WaitReason, r.Delta)
		}
	}
	slices.Sort(took)
	t.Logf("20 remote `true`: p50 %v, max %v (quiet window 3 s)", took[len(took)/2], took[len(took)-1])
	for _, question := range []string{`read -s -p "Password: " pw`, `read -p "Continue? [y/N] " yn`} {
		r := send(question, time.Second)
		if r.WaitReason == core.WaitRemotePrompt || !strings.Contains(r.Delta, strings.Split(question, `"`)[1]) {
			t.Fatalf("%s settled %s: %q", question, r.WaitReason, r.Delta)
		}
		if r := send("x", 0); r.WaitReason != core.WaitRemotePrompt {
			t.Fatalf("the answer to %s settled %s: %q", question, r.WaitReason, r.Delta)
		}
	}
	if r := send("exit", 0); r.WaitReason != core.WaitPrompt {
		t.Fatalf("back in the local shell: %s %q", r.WaitReason, r.Delta)
	}
}
