package docker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/events"
	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/remote/remotetest"
)

// A spawn whose caller gives up while the engine creates its container
// leaves no container behind: an engine slow under load creates the
// container after the client stopped waiting for the answer (dockerd does
// not abandon a create whose client went away), so only a spawn that
// still learns the new container's id can remove it. An engine proxy
// holds the create's answer; the test gives up once the engine has
// created the container (its create event), then lets the answer pass.
// Relayed and with the agent inside.
func TestSpawnGivenUpDuringCreate(t *testing.T) {
	for _, agent := range []bool{false, true} {
		name := "relay"
		if agent {
			name = "agent"
		}
		t.Run(name, func(t *testing.T) {
			d := dockertest.Shared(t)
			p := startEngineProxy(t, d)
			opts := BackendOptions{Host: p.host}
			if agent {
				opts.AgentBinary, opts.AgentMount = remotetest.Binary(t), true
			}
			b, err := NewBackend(opts)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = b.Close() })
			marker := fmt.Sprintf("create-given-up-%d-%d", os.Getpid(), time.Now().UnixNano())
			wctx, created := holdCreates(t, d, p, marker)
			t.Cleanup(p.releaseAnswers)
			ctx, giveUp := context.WithCancel(context.Background())
			defer giveUp()
			type result struct {
				s   core.BackendSession
				err error
			}
			done := make(chan result, 1)
			go func() {
				s, err := b.Spawn(ctx, core.BackendRequest{Size: core.DefaultSize, Marker: marker,
					Options: &Target{Image: d.Image, Shell: []string{"/bin/sh"}}})
				done <- result{s, err}
			}()
			select {
			case <-created.Messages:
			case err := <-created.Err:
				t.Fatalf("the engine's events: %v", err)
			case r := <-done:
				t.Fatalf("Spawn returned before the engine created its container: %v, %v", r.s, r.err)
			}
			giveUp()
			p.releaseAnswers()
			var r result
			select {
			case r = <-done:
			case <-wctx.Done():
				t.Fatal("Spawn did not return after its context ended and the engine answered")
			}
			if r.err == nil {
				_ = r.s.Close(context.Background())
				t.Fatal("Spawn succeeded with its context ended")
			}
			if core.CodeOf(r.err) != core.CodeSpawnFailed || !errors.Is(r.err, context.Canceled) {
				t.Fatalf("Spawn: %v (code %s); want SPAWN_FAILED matching context.Canceled", r.err, core.CodeOf(r.err))
			}
			if left := markedContainers(t, d.Client, marker); len(left) > 0 {
				t.Fatalf("the given-up spawn left its container behind:%s", describeContainers(t, d, left))
			}
		})
	}
}

// holdCreates has the engine proxy p hold the answers to container
// creates, and returns the engine's events of the creation of a container
// labelled with marker and the context bounding the test's waits (ended
// at the test's end). The watch replays the events the engine holds
// (Since): it writes the stream's headers before it subscribes.
func holdCreates(t *testing.T, d *dockertest.Daemon, p *engineProxy, marker string) (context.Context, client.EventsResult) {
	t.Helper()
	wctx, wcancel := context.WithTimeout(context.Background(), testenv.HangBound)
	t.Cleanup(wcancel)
	created := d.Client.Events(wctx, client.EventsListOptions{Since: "1", Filters: client.Filters{}.
		Add("type", string(events.ContainerEventType)).Add("event", string(events.ActionCreate)).
		Add("label", LabelSession+"="+marker)})
	p.holdAnswers("/containers/create")
	return wctx, created
}

// markedContainers lists the containers whose session label is marker
// that the engine still has (staleListEntry).
func markedContainers(t testing.TB, cli *client.Client, marker string) []string {
	t.Helper()
	return liveContainers(t, cli, client.Filters{}.Add("label", LabelSession+"="+marker))
}

// An engine that does not answer a create within the bound after the
// caller gave up fails the spawn with CLEANUP_FAILED, matching the
// context's error and naming the label of the container that may still
// appear (here it does: the engine created it, the proxy holds the
// answer until the test ends).
func TestCreateUnansweredAfterGiveUp(t *testing.T) {
	b, p, d := proxiedBackend(t)
	marker := fmt.Sprintf("create-unanswered-%d-%d", os.Getpid(), time.Now().UnixNano())
	wctx, created := holdCreates(t, d, p, marker)
	t.Cleanup(func() {
		p.releaseAnswers()
		ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
		defer cancel()
		for _, id := range markedContainers(t, d.Client, marker) {
			if _, err := d.Client.ContainerRemove(ctx, id, client.ContainerRemoveOptions{Force: true}); err != nil {
				t.Error(err)
			}
		}
	})
	ctx, giveUp := context.WithCancel(context.Background())
	defer giveUp()
	type result struct {
		id  string
		err error
	}
	done := make(chan result, 1)
	go func() {
		id, err := b.createWaiting(ctx, time.Second, client.ContainerCreateOptions{Config: &container.Config{
			Image: d.Image, Cmd: []string{"true"}, Labels: map[string]string{LabelSession: marker}}}, marker)
		done <- result{id, err}
	}()
	select {
	case <-created.Messages:
	case err := <-created.Err:
		t.Fatalf("the engine's events: %v", err)
	case r := <-done:
		t.Fatalf("the create returned before the engine created the container: %q, %v", r.id, r.err)
	}
	giveUp()
	var r result
	select {
	case r = <-done:
	case <-wctx.Done():
		t.Fatal("the create did not return after its bound")
	}
	var ce *core.CleanupError
	if r.id != "" || !errors.As(r.err, &ce) || !errors.Is(r.err, context.Canceled) || !strings.Contains(r.err.Error(), LabelSession+"="+marker) {
		t.Fatalf("create unanswered after giving up: %q, %v; want no id and CLEANUP_FAILED matching context.Canceled, naming %s=%s", r.id, r.err, LabelSession, marker)
	}
}
