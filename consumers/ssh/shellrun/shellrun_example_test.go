package shellrun_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/shellrun"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

func ExampleRun() {
	svc := core.New(core.Options{})
	if err := localpty.Register(svc); err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	defer svc.Shutdown(ctx)
	owner := core.NewOwner("example")
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeShell})
	if err != nil {
		log.Fatal(err)
	}
	shellrun.Run(ctx, svc, owner, sp.ID, "cd /usr && greeting=hi", shellrun.Options{})
	res, err := shellrun.Run(ctx, svc, owner, sp.ID, `echo "$greeting from $(pwd)"; exit_with() { return $1; }; exit_with 4`, shellrun.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q %d\n", res.Output, res.ExitCode)
	// Output: "hi from /usr\n" 4
}
