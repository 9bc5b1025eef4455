package docker

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote/remotetest"
)

// With the agent inside, a container's password prompt takes a secret as
// a local one does: the service sees the hidden line and who reads it
// (the questions pty_secret asks first), types the secret, and the
// program gets it while no result shows it.
func TestAgentSecret(t *testing.T) {
	t.Parallel()
	b, d := newAgentBackend(t)
	tg, bin := childrenTarget(t, d)
	svc := core.New(core.Options{})
	if _, err := svc.Register(targetBackend{b: b, t: tg}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	defer func() { _ = svc.Shutdown(ctx) }()
	owner := core.NewOwner("test")
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: Type})
	if err != nil {
		t.Fatal(err)
	}
	if res := remotetest.Send(t, svc, owner, sp.ID, bin+" password"); res.WaitReason != core.WaitStdinRead {
		t.Fatalf("the password prompt settled as %+v, want stdin_read", res)
	}
	if off, known, err := svc.EchoOff(owner, sp.ID); err != nil || !known || !off {
		t.Fatalf("EchoOff at the prompt: off %v known %v (%v), want a hidden line", off, known, err)
	}
	r, err := svc.Reader(owner, sp.ID)
	if err != nil {
		t.Fatalf("Reader: %v", err)
	}
	if len(r.Programs) == 0 || !slices.Contains(r.Programs[0].Argv, "password") || r.Leader {
		t.Fatalf("Reader: %+v, want the children binary's password prompt", r)
	}
	if err := svc.TypeSecret(ctx, owner, sp.ID, []byte("s3cret-42")); err != nil {
		t.Fatalf("TypeSecret: %v", err)
	}
	remotetest.Send(t, svc, owner, sp.ID, "echo after")
	page, err := svc.Read(owner, sp.ID, core.PageRequest{Count: 100, Newest: true})
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(page.Lines, "\n")
	if strings.Contains(text, "s3cret-42") {
		t.Fatalf("the secret is in the scrollback:\n%s", text)
	}
	if !strings.Contains(text, "got 9 bytes") {
		t.Fatalf("scrollback:\n%s\nwant the program to have got the 9-byte secret", text)
	}
}
