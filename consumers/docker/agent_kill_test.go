package docker

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// With the agent in a new container, a container killed (docker kill -s
// KILL) or stopped (docker stop: SIGTERM, on which the agent exits 0, as
// it does when its stdin ends) by someone else mid-send ends the send
// promptly (session_exit, Status.Reason container
// stopped), later calls fail with SESSION_EXITED matching
// ErrContainerStopped and remote.ErrConnectionLost, and Close leaves no
// container behind.
func TestAgentContainerKilledMidSend(t *testing.T) {
	b, d := newAgentBackend(t)
	svc := core.New(core.Options{})
	if _, err := svc.Register(b); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	defer func() { _ = svc.Shutdown(ctx) }()
	owner := core.NewOwner("test")
	for _, how := range []string{"kill", "stop"} {
		t.Run(how, func(t *testing.T) {
			before := sessionContainers(t, d.Client)
			sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: Type, Options: &Target{Image: d.Image, Shell: []string{"/bin/bash"}}})
			if err != nil {
				t.Fatal(err)
			}
			victim := newContainer(t, before, sessionContainers(t, d.Client))
			op, err := svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: "sleep 1002", QuietWindow: 10 * time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			waitTop(t, ctx, d, victim, "sleep 1002")
			start := time.Now()
			if how == "kill" {
				_, err = d.Client.ContainerKill(ctx, victim, client.ContainerKillOptions{Signal: "KILL"})
			} else {
				grace := 60 // seconds: the agent ends on SIGTERM, long before
				_, err = d.Client.ContainerStop(ctx, victim, client.ContainerStopOptions{Timeout: &grace})
			}
			if err != nil {
				t.Fatal(err)
			}
			res, err := op.Wait(ctx)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("the send ended %v after the %s began: %s", time.Since(start), how, res.Status)
			if res.WaitReason != core.WaitSessionExit || res.Status.Reason != ReasonContainerStopped {
				t.Fatalf("send settled as %s with %v; want session_exit, exited (%s)", res.WaitReason, res.Status, ReasonContainerStopped)
			}
			_, err = svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: "true"})
			if !errors.Is(err, core.ErrSessionExited) || !errors.Is(err, ErrContainerStopped) || !errors.Is(err, remote.ErrConnectionLost) {
				t.Fatalf("send after the kill: %v; want SESSION_EXITED matching ErrContainerStopped and remote.ErrConnectionLost", err)
			}
			if _, err := svc.Close(ctx, owner, sp.ID, "done"); err != nil {
				t.Fatal(err)
			}
			if after := sessionContainers(t, d.Client); !sameSet(before, after) {
				t.Fatalf("session containers after Close: %v, before the spawn: %v", after, before)
			}
			if containerExists(t, d.Client, victim) {
				t.Fatalf("container %s is left after Close", short(victim))
			}
		})
	}
}
