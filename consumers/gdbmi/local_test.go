package gdbmi

import (
	"context"
	"errors"
	"syscall"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// TestStartLocal: one call starts the service and gdb; Close ends gdb,
// the program and the service.
func TestStartLocal(t *testing.T) {
	prog := compile(t, "simple")
	ctx := testCtx(t)
	c, err := StartLocal(ctx, Options{Program: prog, Args: []string{"7"}})
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.svc.Info(c.Owner(), c.GDBSession())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := c.WaitStopped(ctx)
	if err != nil || st.Reason != "exited" || st.ExitCode != 7 {
		t.Fatalf("stop %+v %v", st, err)
	}
	cctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	if err := c.Close(cctx); err != nil {
		t.Fatal(err)
	}
	if syscall.Kill(info.PID, 0) == nil {
		t.Errorf("gdb (pid %d) runs after Close", info.PID)
	}
	if _, err := c.ownService.Spawn(cctx, c.Owner(), core.SpawnRequest{Type: "exec", Command: []string{"true"}}); !errors.Is(err, core.ErrServiceDisposing) {
		t.Errorf("spawn after Close: %v, want the service shut down", err)
	}
}
