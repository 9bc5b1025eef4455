package docker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/moby/moby/api/types/events"
	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
	"github.com/ptyseam/ptyseam/core"
)

// A cut of the engine connections is reported as a cut even when the
// container is removed right after the engine has told the session that
// it still ran: the session's verdict rests on what the engine said at
// the cut, and does not wait for later events (which made a cut of an
// agent's exec wait about 2 s, and call a later removal the cause). In
// each mode.
func TestEngineCutThenContainerRemoved(t *testing.T) {
	for _, mode := range cutModes {
		t.Run(mode.name, func(t *testing.T) {
			d := dockertest.Shared(t)
			p := startEngineProxy(t, d)
			svc := serviceOn(t, p.host, mode.agent)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			owner := core.NewOwner("test")
			tg, cid := bashTarget(t, d, mode.exec)
			before := sessionContainers(t, d.Client)
			sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: Type, Options: tg})
			if err != nil {
				t.Fatal(err)
			}
			if !mode.exec {
				cid = newContainer(t, before, sessionContainers(t, d.Client))
			}
			op, err := svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: "sleep 1004", QuietWindow: 10 * time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			waitTop(t, ctx, d, cid, "sleep 1004")
			answered := p.answeredTo("/containers/" + cid + "/json")
			p.cut()
			select {
			case <-answered:
			case <-ctx.Done():
				t.Fatal("the session did not ask the engine for its container after the cut")
			}
			if _, err := d.Client.ContainerRemove(ctx, cid, client.ContainerRemoveOptions{Force: true}); err != nil {
				t.Fatal(err)
			}
			res, err := op.Wait(ctx)
			if err != nil || res.WaitReason != core.WaitSessionExit || res.Status.Reason != ReasonEngineLost {
				t.Fatalf("the send after the cut, then the removal: %+v, %v; want session_exit, exited (%s)", res, err, ReasonEngineLost)
			}
			if _, err := svc.Close(ctx, owner, sp.ID, "done"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// With the agent in a new container, a docker stop (SIGTERM, on which the
// agent exits 0, as it does when a cut ends its stdin) is reported as a
// stop even when the engine no longer holds the stop's kill event in its
// history by the time the session learns its stream ended: the session
// follows the container's events from before the agent started. The
// proxy holds every new connection of the backend from before the stop
// until the kill event has rolled out of the engine's event buffer.
func TestAgentStopReportedAfterHistoryRolled(t *testing.T) {
	d := dockertest.Shared(t)
	p := startEngineProxy(t, d)
	svc := serviceOn(t, p.host, true)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	owner := core.NewOwner("test")
	busy := runContainer(t, d) // the events that roll the buffer are its
	before := sessionContainers(t, d.Client)
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: Type, Options: &Target{Image: d.Image, Shell: []string{"/bin/bash"}}})
	if err != nil {
		t.Fatal(err)
	}
	victim := newContainer(t, before, sessionContainers(t, d.Client))
	op, err := svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: "sleep 1005", QuietWindow: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	waitTop(t, ctx, d, victim, "sleep 1005")
	p.hold()
	grace := 60 // seconds: the agent ends on SIGTERM long before
	if _, err := d.Client.ContainerStop(ctx, victim, client.ContainerStopOptions{Timeout: &grace}); err != nil {
		t.Fatal(err)
	}
	n := 0
	for ; killInHistory(t, ctx, d, victim); n += 50 {
		if n == 5000 {
			t.Fatal("the engine still holds the stop's kill event after 5000 more events")
		}
		for range 50 {
			if _, err := d.Client.ExecCreate(ctx, busy, client.ExecCreateOptions{Cmd: []string{"true"}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("the stop's kill event left the engine's history after %d more events", n)
	p.release()
	res, err := op.Wait(ctx)
	if err != nil || res.WaitReason != core.WaitSessionExit || res.Status.Reason != ReasonContainerStopped {
		t.Fatalf("the send after the stop: %+v, %v; want session_exit, exited (%s)", res, err, ReasonContainerStopped)
	}
	if _, err := svc.Close(ctx, owner, sp.ID, "done"); err != nil {
		t.Fatal(err)
	}
	if after := sessionContainers(t, d.Client); !sameSet(before, after) {
		t.Fatalf("session containers after Close: %v, before the spawn: %v", after, before)
	}
}

// killInHistory reports whether the engine still lists a kill event of
// the container id among its past events.
func killInHistory(t *testing.T, ctx context.Context, d *dockertest.Daemon, id string) bool {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	now := time.Now() // the test runs on the engine's host: one clock
	ev := d.Client.Events(ctx, client.EventsListOptions{Since: "1", Until: fmt.Sprintf("%d.%09d", now.Unix(), now.Nanosecond()),
		Filters: client.Filters{}.Add("type", string(events.ContainerEventType)).Add("container", id)})
	found := false
	for {
		select {
		case m := <-ev.Messages:
			found = found || m.Action == events.ActionKill
		case err := <-ev.Err:
			if err != nil && !errors.Is(err, io.EOF) {
				t.Fatalf("the engine's past events: %v", err)
			}
			return found
		}
	}
}
