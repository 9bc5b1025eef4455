package jobtools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/consumers/jobs/jobtools"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

func Example() {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := core.New(core.Options{Logger: log})
	defer svc.Shutdown(ctx)
	m, _ := jobs.New(svc, jobs.Config{Backend: jobs.BackendPipe, Logger: log})
	defer m.Shutdown(ctx)

	// The bg_* tools go into the same dispatcher as any other tools.
	d, err := tools.NewDispatcher(tools.Options{}, jobtools.Tools(m)...)
	if err != nil {
		fmt.Println(err)
		return
	}
	owner := core.NewOwner("agent")
	call := func(name, args string) tools.Result {
		res, err := d.Call(ctx, owner, name, json.RawMessage(args), tools.CallOptions{})
		if err != nil {
			fmt.Println(err.(*tools.ToolError).Text())
		}
		return res
	}

	ended := make(chan jobs.Event, 1)
	m.OnExit(func(ev jobs.Event) { ended <- ev })

	res := call("bg_launch", `{"command":"head","args":["-n","1"],"title":"first line"}`)
	id := res.Structured.(jobtools.LaunchOut).ID
	call("bg_send", `{"id":"`+id+`","data":"hello\\n"}`)
	<-ended
	res = call("bg_stop", `{"id":"`+id+`"}`) // it ended already: reports how
	fmt.Println(strings.TrimPrefix(res.Text, "job "+id+" "))
	res = call("bg_read", `{"id":"`+id+`","from":0}`)
	fmt.Println(res.Structured.(jobtools.ReadOut).Lines[0].Text)
	call("bg_drop", `{"id":"no-such-job"}`)
	// Output:
	// finished (exit 0)
	// hello
	// NO_SESSION: no such job
	// Next: No job has this id (it may have been dropped). bg_list shows your jobs.
}
