package docker

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
)

// newFacade registers b on a fresh service and returns the facade with
// the targets, shut down when t ends.
func newFacade(t *testing.T, b *Backend, targets map[string]ptysession.Target) (*ptysession.Sessions, *core.Service) {
	t.Helper()
	svc := core.New(core.Options{})
	if _, err := svc.Register(b); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := svc.Shutdown(ctx); err != nil {
			t.Error(err)
		}
	})
	return ptysession.New(svc, ptysession.Options{Targets: targets}), svc
}

// sessionContainers lists the containers the backend created.
func sessionContainers(t testing.TB, cli *client.Client) []string {
	t.Helper()
	return labelledContainers(t, cli, "")
}

// testLabel marks the containers of one test that runs in parallel with
// others on the package's daemon (Target.Labels).
const testLabel = "io.ptyseam.test"

// labelledContainers lists the containers the backend created with
// testLabel set to test (any, when test is empty) that the engine still
// has (not its stale list entries: staleListEntry).
func labelledContainers(t testing.TB, cli *client.Client, test string) []string {
	t.Helper()
	f := client.Filters{}.Add("label", LabelSession)
	if test != "" {
		f = f.Add("label", testLabel+"="+test)
	}
	return liveContainers(t, cli, f)
}

// liveContainers lists the containers matching f that the engine still
// has (not its stale list entries: staleListEntry).
func liveContainers(t testing.TB, cli *client.Client, f client.Filters) []string {
	t.Helper()
	list, err := cli.ContainerList(context.Background(), client.ContainerListOptions{All: true, Filters: f})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range list.Items {
		if !staleListEntry(t, cli, c.ID) {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// A bash in a new container is a facade target: the facade installs the
// prompt marker, so `true` settles on the prompt (not on silence), the exit
// code and the environment come through, resize reaches the shell, SIGINT
// reaches the foreground job, and Close removes the container.
func TestFacadeContainerShell(t *testing.T) {
	b, d := newBackend(t)
	s, _ := newFacade(t, b, map[string]ptysession.Target{
		"box": {Backend: Type, Description: "test container", PromptMarker: true,
			Options: &Target{Image: d.Image, Shell: []string{"/bin/bash"}, WorkingDir: "/tmp"}},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	owner := core.NewOwner("test")
	beforeIDs := sessionContainers(t, d.Client)
	before := len(beforeIDs)
	opened := time.Now()
	op, err := s.Open(ctx, owner, ptysession.OpenRequest{Command: "bash", Target: "box", Env: map[string]string{"GREETING": "it's me"}})
	if err != nil {
		t.Fatal(err)
	}
	// The relayed shell's marker set-up settles on the prompt that answers
	// it, not on the open's deadline.
	if op.WaitReason != core.WaitPrompt {
		t.Fatalf("open settled %q after %v, want prompt", op.WaitReason, time.Since(opened))
	}
	t.Logf("open of a relayed container target: %v", time.Since(opened))
	id := op.SessionID
	start := time.Now()
	r, err := s.Send(ctx, owner, id, ptysession.SendRequest{Data: "true"})
	if err != nil || r.WaitReason != core.WaitPrompt {
		t.Fatalf("send true: %+v %v", r, err)
	}
	t.Logf("send true settled on %s in %v", r.WaitReason, time.Since(start))
	r, err = s.Send(ctx, owner, id, ptysession.SendRequest{Data: `echo "$GREETING in $(pwd) as $(id -u)"; (exit 7)`})
	if err != nil || r.WaitReason != core.WaitPrompt || !strings.Contains(r.Delta, "it's me in /tmp as 0") || r.ExitCode == nil || *r.ExitCode != 7 {
		t.Fatalf("send: %+v %v", r, err)
	}
	if _, err := s.Resize(ctx, owner, id, 33, 101); err != nil {
		t.Fatal(err)
	}
	if r, err = s.Send(ctx, owner, id, ptysession.SendRequest{Data: "stty size"}); err != nil || !strings.Contains(r.Delta, "33 101") {
		t.Fatalf("stty size: %+v %v", r, err)
	}
	if r, err = s.Send(ctx, owner, id, ptysession.SendRequest{Data: "sleep 100", Timeout: 500 * time.Millisecond}); err != nil || r.WaitReason == core.WaitPrompt {
		t.Fatalf("sleep: %+v %v", r, err)
	}
	// The send ended on its deadline, which says nothing about sleep: a
	// SIGINT that reached the shell before it started sleep would leave
	// sleep running and no status 130.
	waitTop(t, ctx, d, newContainer(t, beforeIDs, sessionContainers(t, d.Client)), "sleep 100")
	if sr, err := s.Signal(ctx, owner, id, "SIGINT"); err != nil || !sr.Delivered {
		t.Fatalf("signal: %+v %v", sr, err)
	}
	for {
		r, err = s.Send(ctx, owner, id, ptysession.SendRequest{Data: "echo rc=$?"})
		if err != nil || r.WaitReason != core.WaitPrompt {
			t.Fatalf("after SIGINT: %+v %v", r, err)
		}
		if strings.Contains(r.Delta, "rc=130") {
			break
		}
		if !strings.Contains(r.Delta, "rc=") {
			t.Fatalf("after SIGINT: %q", r.Delta)
		}
		t.Fatalf("the interrupted sleep's status: %q, want rc=130", r.Delta)
	}
	if got := len(sessionContainers(t, d.Client)); got != before+1 {
		t.Fatalf("%d session containers while the session runs, want %d", got, before+1)
	}
	if cr, err := s.Close(ctx, owner, id); err != nil || !cr.Closed {
		t.Fatalf("close: %+v %v", cr, err)
	}
	if got := len(sessionContainers(t, d.Client)); got != before {
		t.Fatalf("%d session containers after Close, want %d: Close did not remove it", got, before)
	}
}

// Close of an exec session in an existing container ends every process
// it started, a setsid double fork that ignores SIGTERM and SIGHUP
// included, as listed by the engine (docker top), and leaves the
// container running.
func TestExecCloseLeavesNoProcess(t *testing.T) {
	b, d := newBackend(t)
	cid := runContainer(t, d)
	s, _ := newFacade(t, b, map[string]ptysession.Target{
		"host": {Backend: Type, PromptMarker: true, Options: &Target{Container: cid, Shell: []string{"/bin/bash"}}},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	owner := core.NewOwner("test")
	op, err := s.Open(ctx, owner, ptysession.OpenRequest{Command: "bash", Target: "host"})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"sleep 301 &",
		`setsid bash -c 'trap "" TERM HUP; (trap "" TERM HUP; exec sleep 302) & exit 0'`,
		`trap "" TERM HUP`,
	} {
		if r, err := s.Send(ctx, owner, op.SessionID, ptysession.SendRequest{Data: line}); err != nil || r.WaitReason != core.WaitPrompt {
			t.Fatalf("%s: %+v %v", line, r, err)
		}
	}
	// The double fork runs its sleep a moment after its parent returned.
	for _, want := range []string{"sleep 301", "sleep 302", "/bin/bash"} {
		for procs := top(t, d.Client, cid); !strings.Contains(procs, want); procs = top(t, d.Client, cid) {
			if ctx.Err() != nil {
				t.Fatalf("%q is not running before Close:\n%s", want, procs)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if cr, err := s.Close(ctx, owner, op.SessionID); err != nil || !cr.Closed {
		t.Fatalf("close: %+v %v", cr, err)
	}
	procs := top(t, d.Client, cid)
	for _, gone := range []string{"sleep 301", "sleep 302", "bash"} {
		if strings.Contains(procs, gone) {
			t.Fatalf("%q survived Close:\n%s", gone, procs)
		}
	}
	if !strings.Contains(procs, "sleep 100000") {
		t.Fatalf("the container's own program is gone:\n%s", procs)
	}
}

// top lists the container's processes as the engine sees them.
func top(t testing.TB, cli *client.Client, id string) string {
	t.Helper()
	res, err := cli.ContainerTop(context.Background(), id, client.ContainerTopOptions{Arguments: []string{"-eo", "pid,args"}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, p := range res.Processes {
		b.WriteString(strings.Join(p, " ") + "\n")
	}
	return b.String()
}

// Killing the container mid-send ends the send (session_exit) and the
// session, and the session's errors say why: ErrContainerStopped, also
// through the service's SESSION_EXITED errors.
func TestContainerKilledMidSend(t *testing.T) {
	b, d := newBackend(t)
	svc := core.New(core.Options{})
	if _, err := svc.Register(b); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	defer func() { _ = svc.Shutdown(ctx) }()
	owner := core.NewOwner("test")
	for _, mode := range []string{"container", "exec"} {
		t.Run(mode, func(t *testing.T) {
			var tg *Target
			var victim string
			before := sessionContainers(t, d.Client)
			if mode == "exec" {
				victim = runContainer(t, d)
				before = sessionContainers(t, d.Client)
				tg = &Target{Container: victim, Shell: []string{"/bin/bash"}}
			} else {
				tg = &Target{Image: d.Image, Shell: []string{"/bin/bash"}}
			}
			sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: Type, Options: tg})
			if err != nil {
				t.Fatal(err)
			}
			if mode == "container" {
				victim = newContainer(t, before, sessionContainers(t, d.Client))
			}
			op, err := svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: "sleep 1000"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := d.Client.ContainerKill(ctx, victim, client.ContainerKillOptions{Signal: "KILL"}); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			res, err := op.Wait(ctx)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("the send ended %v after the kill", time.Since(start))
			if res.WaitReason != core.WaitSessionExit || res.Status.Reason != ReasonContainerStopped {
				t.Fatalf("send settled as %s with %v; want session_exit, exited (%s)", res.WaitReason, res.Status, ReasonContainerStopped)
			}
			_, err = svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: "true"})
			if !errors.Is(err, ErrContainerStopped) || !errors.Is(err, core.ErrSessionExited) {
				t.Fatalf("send after the kill: %v", err)
			}
			if _, err := svc.Close(ctx, owner, sp.ID, "done"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// newContainer returns the one id in after that is not in before.
func newContainer(t testing.TB, before, after []string) string {
	t.Helper()
	var fresh []string
	for _, id := range after {
		found := false
		for _, b := range before {
			found = found || b == id
		}
		if !found {
			fresh = append(fresh, id)
		}
	}
	if len(fresh) != 1 {
		t.Fatalf("want one new container, got %v", fresh)
	}
	return fresh[0]
}
