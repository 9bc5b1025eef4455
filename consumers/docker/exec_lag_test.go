package docker

import (
	"context"
	"testing"
	"time"

	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
	"github.com/ptyseam/ptyseam/core"
)

// A relayed exec whose container is killed mid-send ends the send with
// Status.Reason container stopped even when the engine's report of the
// container's end reaches the session late (a loaded engine can take
// seconds): the exec died of SIGKILL, and a probe exec that the runtime
// refuses because the container's init stopped shows the container died.
// The proxy holds the answer of the session's wait call on its container
// until the send has ended (before the probe, the send ended after 2 s
// with a bare exited (SIGKILL)).
func TestExecKilledWhileEngineLags(t *testing.T) {
	execKilledWhileEngineLags(t, false)
}

// The same when the probe exec's start gets no answer either (a loaded
// run saw the probe refused in words it did not know): the engine's own
// state, asked again while the wait call's answer lags, shows that the
// container stopped.
func TestExecKilledWhileEngineAndProbeLag(t *testing.T) {
	execKilledWhileEngineLags(t, true)
}

func execKilledWhileEngineLags(t *testing.T, probeLags bool) {
	d := dockertest.Shared(t)
	p := startEngineProxy(t, d)
	svc := serviceOn(t, p.host, false)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	owner := core.NewOwner("test")
	cid := runContainer(t, d)
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: Type, Options: &Target{Container: cid, Shell: []string{"/bin/bash"}}})
	if err != nil {
		t.Fatal(err)
	}
	op, err := svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: "sleep 1006", QuietWindow: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	waitTop(t, ctx, d, cid, "sleep 1006")
	held := []string{"/containers/" + cid + "/wait"}
	if probeLags {
		held = append(held, "/start") // the session's exec has started: the probe's
	}
	p.holdAnswers(held...)
	defer p.releaseAnswers()
	if _, err := d.Client.ContainerKill(ctx, cid, client.ContainerKillOptions{Signal: "KILL"}); err != nil {
		t.Fatal(err)
	}
	res, err := op.Wait(ctx)
	if err != nil || res.WaitReason != core.WaitSessionExit || res.Status.Reason != ReasonContainerStopped {
		t.Fatalf("the send after the kill: %+v, %v; want session_exit, exited (%s)", res, err, ReasonContainerStopped)
	}
	p.releaseAnswers()
	if _, err := svc.Close(ctx, owner, sp.ID, "done"); err != nil {
		t.Fatal(err)
	}
}

// A relayed exec killed alone by SIGKILL, in a container that runs on,
// ends with its own exit (exited (SIGKILL), no Status.Reason): the probe
// exec starts, so the container is not reported stopped.
func TestExecKilledAloneNotStopped(t *testing.T) {
	d := dockertest.Shared(t)
	svc := serviceOn(t, d.Host, false)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	owner := core.NewOwner("test")
	cid := runContainer(t, d)
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: Type, Options: &Target{Container: cid, Shell: []string{"/bin/bash"}}})
	if err != nil {
		t.Fatal(err)
	}
	op, err := svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: "kill -KILL $$", QuietWindow: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	res, err := op.Wait(ctx)
	if err != nil || res.WaitReason != core.WaitSessionExit || res.Status.Signal != "SIGKILL" || res.Status.Reason != "" {
		t.Fatalf("the send of a self-kill: %+v, %v; want session_exit, exited (SIGKILL) without a reason", res, err)
	}
	ins, err := d.Client.ContainerInspect(ctx, cid, client.ContainerInspectOptions{})
	if err != nil || ins.Container.State == nil || !ins.Container.State.Running {
		t.Fatalf("the container after the exec's self-kill: %+v, %v; want running", ins.Container.State, err)
	}
	if _, err := svc.Close(ctx, owner, sp.ID, "done"); err != nil {
		t.Fatal(err)
	}
}
