package localpty

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// A hangup sent the moment a command's send settled (the shell printing
// its prompt, not yet reading the terminal) ends the shell: bash notes a
// SIGHUP that lands outside its read and would sit at its prompt, hung up
// but running, until input came (3 of 60 rounds kept running before the
// follow-up, at load 14). See hangup_linux.go.
func TestHangupEndsAnIdleShellAfterItsCommand(t *testing.T) {
	svc := serviceOf(t, NewShell(ShellOptions{Options: shortOpts(false)}))
	owner := core.NewOwner("hup")
	for i := range 60 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
		sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: TypeShell})
		mustf(t, err, "spawn")
		sendWait(t, svc, owner, sp.ID, "echo still-here")
		res, err := svc.Signal(ctx, owner, sp.ID, core.SignalRequest{Signal: core.SIGHUP})
		mustf(t, err, "signal")
		wctx, wcancel := context.WithTimeout(ctx, waitLimit)
		_, err = svc.Wait(wctx, owner, sp.ID)
		wcancel()
		if err != nil {
			pid := sp.PID
			st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
			wchan, _ := os.ReadFile(fmt.Sprintf("/proc/%d/wchan", pid))
			var keep []string
			for _, l := range strings.Split(string(st), "\n") {
				if strings.HasPrefix(l, "Sig") || strings.HasPrefix(l, "Shd") || strings.HasPrefix(l, "State") {
					keep = append(keep, l)
				}
			}
			t.Fatalf("round %d: %+v; the shell still runs after the hangup: %v; %s; waits in %s", i, res, err, strings.Join(keep, " | "), wchan)
		}
		_, _ = svc.Close(ctx, owner, sp.ID, "done")
		cancel()
	}
}

// A shell that ignores the hangup (trap "" HUP) is not hung up again and
// goes on: the follow-up is only for a hangup the shell takes.
func TestHangupIgnoredByTheShellIsLeftAlone(t *testing.T) {
	svc := serviceOf(t, NewShell(ShellOptions{Options: shortOpts(false)}))
	owner := core.NewOwner("hup")
	ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
	defer cancel()
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: TypeShell})
	mustf(t, err, "spawn")
	sendWait(t, svc, owner, sp.ID, "trap '' HUP")
	for range 3 {
		_, err := svc.Signal(ctx, owner, sp.ID, core.SignalRequest{Signal: core.SIGHUP})
		mustf(t, err, "signal")
	}
	if res := sendWait(t, svc, owner, sp.ID, "echo still-here"); !strings.Contains(res.Delta, "still-here") {
		t.Fatalf("the shell that ignores SIGHUP did not answer after three hangups: %+v", res)
	}
}
