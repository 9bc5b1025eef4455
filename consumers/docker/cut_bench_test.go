package docker

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/moby/moby/api/types/events"
	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
	"github.com/ptyseam/ptyseam/core"
)

// BenchmarkSendEndAfterCut measures how long a send waiting on a
// long-running command takes to end (session_exit) after its session is
// cut from under it, in each mode (relayed or on the agent, new container
// or exec) and for each cut: the engine connections cut through a proxy
// (the container runs on), the container killed (docker kill -s KILL) or
// stopped (docker stop). It fails when the send ends another way or with
// another Status.Reason. It reports the median and the largest latency
// (p50-ms, max-ms); ns/op is the median. Run it with -benchtime=Nx: each
// iteration starts a session (and, for an exec, a container).
func BenchmarkSendEndAfterCut(b *testing.B) {
	for _, mode := range cutModes {
		for _, how := range []string{"cut", "kill", "stop"} {
			b.Run(mode.name+"/"+how, func(b *testing.B) {
				if how == "stop" && !mode.agent && !mode.exec {
					b.Skip("an interactive bash, the container's program, ignores docker stop's SIGTERM")
				}
				d := dockertest.Shared(b)
				p := startEngineProxy(b, d)
				svc := serviceOn(b, p.host, mode.agent)
				b.StopTimer()
				var lat, afterDie []time.Duration
				for range b.N {
					took, sinceDie := sendEndAfterCut(b, svc, d, p, mode.exec, how)
					lat, afterDie = append(lat, took), append(afterDie, sinceDie)
				}
				slices.Sort(lat)
				slices.Sort(afterDie)
				p50, worst := lat[len(lat)/2], lat[len(lat)-1]
				b.ReportMetric(float64(p50.Nanoseconds()), "ns/op")
				b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(worst.Microseconds())/1000, "max-ms")
				if how != "cut" {
					b.ReportMetric(float64(afterDie[len(afterDie)/2].Microseconds())/1000, "after-die-p50-ms")
				}
			})
		}
	}
}

// cutModes are the backend's four modes.
var cutModes = []struct {
	name  string
	agent bool
	exec  bool
}{{"relay-container", false, false}, {"relay-exec", false, true}, {"agent-container", true, false}, {"agent-exec", true, true}}

// sendEndAfterCut starts a session (in a new container, or as an exec in
// a new running container), sends a long sleep, cuts it (how: "cut",
// "kill" or "stop"), and returns how long the send took to end after the
// cut began, and, for a kill or a stop, after the engine reported the
// container's death (its die event's time). The session is closed before
// it returns.
func sendEndAfterCut(b *testing.B, svc *core.Service, d *dockertest.Daemon, p *engineProxy, exec bool, how string) (took, afterDie time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	owner := core.NewOwner("bench")
	tg := &Target{Image: d.Image, Shell: []string{"/bin/bash"}}
	var cid string
	if exec {
		cid = runContainer(b, d)
		tg = &Target{Container: cid, Shell: []string{"/bin/bash"}}
	}
	before := sessionContainers(b, d.Client)
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: Type, Options: tg})
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		if _, err := svc.Close(ctx, owner, sp.ID, "done"); err != nil {
			b.Fatal(err)
		}
	}()
	if !exec {
		cid = newContainer(b, before, sessionContainers(b, d.Client))
	}
	op, err := svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: "sleep 1003", QuietWindow: 10 * time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	waitTop(b, ctx, d, cid, "sleep 1003")
	want := ReasonContainerStopped
	evctx, evcancel := context.WithCancel(ctx)
	defer evcancel()
	ev := d.Client.Events(evctx, client.EventsListOptions{Filters: client.Filters{}.
		Add("type", string(events.ContainerEventType)).Add("container", cid)})
	b.StartTimer()
	start := time.Now()
	switch how {
	case "cut":
		p.cut()
		want = ReasonEngineLost
	case "kill":
		_, err = d.Client.ContainerKill(ctx, cid, client.ContainerKillOptions{Signal: "KILL"})
	case "stop":
		grace := 60 // seconds: every program here ends on SIGTERM long before
		_, err = d.Client.ContainerStop(ctx, cid, client.ContainerStopOptions{Timeout: &grace})
	}
	if err != nil {
		b.Fatal(err)
	}
	res, err := op.Wait(ctx)
	end := time.Now()
	took = end.Sub(start)
	b.StopTimer()
	if err != nil || res.WaitReason != core.WaitSessionExit || res.Status.Reason != want {
		b.Fatalf("the send after the %s: %+v, %v; want session_exit, exited (%s)", how, res, err, want)
	}
	if how == "cut" {
		b.Logf("%s: the send ended %v after the cut", b.Name(), took)
		return took, 0
	}
	for {
		select {
		case m := <-ev.Messages:
			if m.Action == events.ActionDie {
				afterDie = end.Sub(time.Unix(0, m.TimeNano))
				b.Logf("%s: the send ended %v after the %s began, %v after the engine reported the death", b.Name(), took, how, afterDie)
				return took, afterDie
			}
		case err := <-ev.Err:
			b.Fatalf("the container's events ended before its death: %v", err)
		}
	}
}
