package docker

import (
	"context"
	"regexp"
	"testing"

	"github.com/moby/moby/client"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// TestGivenUpExecCannotStartLater: a spawn into a running container whose
// exec start request is still on its way to the engine when the spawn's
// context ends leaves no exec that could start afterwards. The proxy
// holds the start request; the spawn fails; by then the exec has been
// started and ended (an exec starts once, so the held request, released,
// can start nothing), and no process of the session is in the container.
func TestGivenUpExecCannotStartLater(t *testing.T) {
	b, p, d := proxiedBackend(t)
	tg, cid := bashTarget(t, d, true)
	held, line, release := p.holdFirstRequest(regexp.MustCompile(`^POST /v[0-9.]+/exec/[0-9a-f]+/start `))
	defer release()
	r := spawnGivenUpAt(t, b, core.BackendRequest{Size: core.DefaultSize, Marker: "given-up", Options: tg}, held, "the exec's start")
	if r.err == nil {
		_ = r.s.Close(context.Background())
		t.Fatal("Spawn succeeded with its context ended")
	}
	if core.CodeOf(r.err) != core.CodeSpawnFailed {
		t.Fatalf("Spawn: %v (code %s); want SPAWN_FAILED", r.err, core.CodeOf(r.err))
	}
	execID := regexp.MustCompile(`/exec/([0-9a-f]+)/start`).FindStringSubmatch(line())[1]
	ictx, icancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer icancel()
	ins, err := d.Client.ExecInspect(ictx, execID, client.ExecInspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ins.PID == 0 || ins.Running {
		t.Fatalf("the given-up exec after Spawn returned: running %v, pid %d; want started and ended, so that the held start cannot start it", ins.Running, ins.PID)
	}
	release()
	if left := sessionProcesses(t, d, cid); len(left) > 0 {
		t.Fatalf("processes left in the container after the failed spawn: %v", left)
	}
}
