package hardening

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// tortures are programs that try hard to outlive their session.
var tortures = []struct {
	name string
	req  core.SpawnRequest
	// ready is typed into a shell session, or nil for an exec session.
	ready string
}{
	{"setsid double fork", core.SpawnRequest{Type: "shell"}, "(setsid sh -c 'sleep 1000 & sleep 1000' &) ; (setsid sh -c '(sleep 1000 &) ; sleep 1000' &) ; sleep 0.05"},
	{"ignores SIGTERM and SIGHUP", core.SpawnRequest{Type: "exec", Command: []string{"sh", "-c", `trap "" TERM HUP INT; sh -c 'trap "" TERM HUP; sleep 1000' & sleep 1000`}}, ""},
	{"stops itself", core.SpawnRequest{Type: "exec", Command: []string{"sh", "-c", `sleep 1000 & kill -STOP $$; sleep 1000`}}, ""},
	{"forks 100 children", core.SpawnRequest{Type: "shell"}, "for i in $(seq 100); do sleep 1000 & done"},
}

// newTortureService registers localpty with a short grace, with or
// without the cgroup path.
func newTortureService(t *testing.T, cgroup bool) *core.Service {
	t.Helper()
	svc := core.New(core.Options{Logger: quietLogger()})
	o := localpty.Options{CloseGrace: 100 * time.Millisecond, DisableCgroup: !cgroup, Logger: quietLogger()}
	if _, err := svc.Register(localpty.NewShell(localpty.ShellOptions{Options: o})); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Register(localpty.NewExec(localpty.ExecOptions{Options: o})); err != nil {
		t.Fatal(err)
	}
	return svc
}

// spawnTortures opens one session of each torture program for owner.
func spawnTortures(t *testing.T, ctx context.Context, svc *core.Service, owner *core.Owner) []core.SessionID {
	t.Helper()
	var ids []core.SessionID
	for _, tt := range tortures {
		req := tt.req
		req.NoInitialWait = tt.ready == ""
		s, err := svc.Spawn(ctx, owner, req)
		if err != nil {
			t.Fatalf("%s: spawn: %v", tt.name, err)
		}
		if tt.ready != "" {
			op, err := svc.Send(ctx, owner, s.ID, core.SendRequest{Data: tt.ready})
			if err != nil {
				t.Fatalf("%s: send: %v", tt.name, err)
			}
			if _, err := op.Wait(ctx); err != nil {
				t.Fatalf("%s: wait: %v", tt.name, err)
			}
		}
		ids = append(ids, s.ID)
	}
	return ids
}

// TestOrphans runs rounds of sessions whose programs try to escape and
// tears them down by Close, DisposeOwner or Shutdown, in turn, on the
// cgroup path and on the /proc-scan path: no process may survive any round.
// CI runs 100 rounds; PTYSEAM_SOAK=1 runs 100 of each method and path.
func TestOrphans(t *testing.T) {
	methods := []string{"close", "dispose", "shutdown"}
	n := rounds(100, 600)
	for round := range n {
		method := methods[round%len(methods)]
		cgroup := (round/len(methods))%2 == 0
		ctx := testCtx(t, testenv.HangBound)
		svc := newTortureService(t, cgroup)
		owner := core.NewOwner(fmt.Sprint("round-", round))
		ids := spawnTortures(t, ctx, svc, owner)
		var err error
		switch method {
		case "close":
			var wg sync.WaitGroup
			errs := make([]error, len(ids))
			for i, id := range ids {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = svc.Close(ctx, owner, id, "torture")
				}()
			}
			wg.Wait()
			for _, e := range errs {
				if e != nil {
					err = e
				}
			}
		case "dispose":
			err = svc.DisposeOwner(ctx, owner)
		}
		if serr := svc.Shutdown(ctx); serr != nil && err == nil {
			err = serr
		}
		if err != nil {
			t.Fatalf("round %d (%s, cgroup %v): %v", round, method, cgroup, err)
		}
		requireNoSurvivors(t, fmt.Sprintf("round %d (%s, cgroup %v)", round, method, cgroup))
	}
}
