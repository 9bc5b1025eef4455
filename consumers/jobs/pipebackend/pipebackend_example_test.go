//go:build unix

package pipebackend_test

import (
	"context"
	"fmt"

	"github.com/ptyseam/ptyseam/consumers/jobs/pipebackend"
	"github.com/ptyseam/ptyseam/core"
)

func Example() {
	ctx := context.Background()
	svc := core.New(core.Options{})
	defer svc.Shutdown(ctx)
	if _, err := pipebackend.Register(svc); err != nil {
		fmt.Println(err)
		return
	}
	owner := core.NewOwner("example")
	res, err := svc.Spawn(ctx, owner, core.SpawnRequest{
		Type:          pipebackend.Type,
		Command:       []string{"sh", "-c", "echo to stdout; echo to stderr >&2; exit 2"},
		NoInitialWait: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	st, _ := svc.Wait(ctx, owner, res.ID)
	page, _ := svc.Read(owner, res.ID, core.PageRequest{Count: 10})
	fmt.Println(page.Lines, st)
	_, _ = svc.Close(ctx, owner, res.ID, "done")
	// Output: [to stdout to stderr] exited 2
}
