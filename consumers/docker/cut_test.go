package docker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// Cutting the backend's connections to the engine mid-send ends the send
// (session_exit) and the session, whose later calls fail with an error
// matching ErrEngineLost (and remote.ErrConnectionLost with the agent
// inside); Close then still leaves nothing behind in the container or the
// engine. In each mode: relayed or on the agent, new container or exec.
func TestEngineConnectionCutMidSend(t *testing.T) {
	for _, mode := range []struct {
		name  string
		agent bool
		exec  bool
	}{{"relay-container", false, false}, {"relay-exec", false, true}, {"agent-container", true, false}, {"agent-exec", true, true}} {
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
			op, err := svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: "sleep 1001", QuietWindow: 10 * time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			if !mode.exec {
				cid = newContainer(t, before, sessionContainers(t, d.Client))
			}
			waitTop(t, ctx, d, cid, "sleep 1001")
			p.cut()
			cut := time.Now()
			res, err := op.Wait(ctx)
			t.Logf("the send ended %v after the cut: %s", time.Since(cut), res.Status)
			if err != nil || res.WaitReason != core.WaitSessionExit || res.Status.Reason != ReasonEngineLost {
				t.Fatalf("the send after the cut: %+v, %v; want session_exit, exited (%s)", res, err, ReasonEngineLost)
			}
			_, err = svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: "true"})
			if !errors.Is(err, core.ErrSessionExited) || !errors.Is(err, ErrEngineLost) {
				t.Fatalf("a send after the cut: %v; want SESSION_EXITED matching ErrEngineLost", err)
			}
			if mode.agent && !errors.Is(err, remote.ErrConnectionLost) {
				t.Fatalf("a send after the cut: %v; want it to match remote.ErrConnectionLost", err)
			}
			if mode.agent {
				// The agent saw its stream end (its stdin closed by the
				// engine when the attach or exec connection ended) and
				// closed everything it started, before anyone closed the
				// session. The bound is below the protocol's keepalive
				// (about 30 s), so an agent that only the keepalive tells
				// fails it.
				gctx, gcancel := context.WithTimeout(ctx, stdinEndBound)
				waitGone(t, gctx, d, cid, "sleep 1001")
				gcancel()
				t.Logf("the agent ended the session's processes %v after the cut", time.Since(cut))
			}
			if _, err := svc.Close(ctx, owner, sp.ID, "done"); err != nil {
				t.Fatal(err)
			}
			if mode.exec {
				if left := sessionProcesses(t, d, cid); len(left) > 0 {
					t.Fatalf("processes left in the container after Close:\n%s", strings.Join(left, "\n"))
				}
			} else if after := sessionContainers(t, d.Client); !sameSet(before, after) {
				t.Fatalf("session containers after Close: %v, before the spawn: %v", after, before)
			}
		})
	}
}

// stdinEndBound bounds how long, after a cut, an agent takes to end its
// session's processes: a failure bound well above the milliseconds it
// takes and well below the keepalive's 30 s.
const stdinEndBound = 10 * time.Second

// waitGone waits until the container lists no process whose line holds
// gone, or has stopped.
func waitGone(t *testing.T, ctx context.Context, d *dockertest.Daemon, id, gone string) {
	t.Helper()
	for {
		res, err := d.Client.ContainerTop(ctx, id, client.ContainerTopOptions{Arguments: []string{"-eo", "pid,args"}})
		switch {
		case err != nil && (cerrdefs.IsNotFound(err) || strings.Contains(err.Error(), "is not running")):
			return // the container has stopped
		case err != nil && ctx.Err() != nil:
			t.Fatalf("%q still runs in the container (or the engine did not answer in time): %v", gone, err)
		case err != nil:
			// A container that is stopping can fail a top with the
			// shim's error ("ttrpc: closed") before its state says it
			// stopped: ask the state, and keep polling while it runs.
			ins, ierr := d.Client.ContainerInspect(ctx, id, client.ContainerInspectOptions{})
			if cerrdefs.IsNotFound(ierr) || (ierr == nil && (ins.Container.State == nil || !ins.Container.State.Running)) {
				return // the container has stopped
			}
		case !strings.Contains(fmt.Sprint(res.Processes), gone):
			return
		case ctx.Err() != nil:
			t.Fatalf("%q still runs in the container: %v", gone, res.Processes)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitTop waits until the container lists a process whose line holds want.
func waitTop(t testing.TB, ctx context.Context, d *dockertest.Daemon, id, want string) {
	t.Helper()
	for procs := top(t, d.Client, id); !strings.Contains(procs, want); procs = top(t, d.Client, id) {
		if ctx.Err() != nil {
			t.Fatalf("%q is not running:\n%s", want, procs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
