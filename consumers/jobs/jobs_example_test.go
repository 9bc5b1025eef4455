//go:build unix

package jobs_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/core"
)

func Example() {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := core.New(core.Options{Logger: log})
	defer svc.Shutdown(ctx)
	m, err := jobs.New(svc, jobs.Config{Backend: jobs.BackendPipe, Logger: log})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Shutdown(ctx)

	ended := make(chan jobs.Event, 1)
	m.OnExit(func(ev jobs.Event) { ended <- ev })

	owner := core.NewOwner("agent")
	job, err := m.Launch(ctx, owner, jobs.LaunchRequest{
		Command: "sh",
		Args:    []string{"-c", "echo 'Local: http://localhost:5173/'; echo ready; exit 2"},
		Title:   "dev server",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ev := <-ended
	fmt.Println(jobs.Outcome(ev.Info), ev.Info.Services)

	page, _ := m.Read(owner, job.ID, jobs.ReadRequest{From: new(int64), Pattern: "^ready$"})
	for _, l := range page.Lines {
		fmt.Println(l.N, l.Text)
	}
	fmt.Println("next", page.Next)
	// Output:
	// failed (exit 2) [http://localhost:5173]
	// 1 ready
	// next 2
}

func ExampleManager_Stop() {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := core.New(core.Options{Logger: log})
	defer svc.Shutdown(ctx)
	m, _ := jobs.New(svc, jobs.Config{Backend: jobs.BackendPipe, Logger: log})
	defer m.Shutdown(ctx)
	owner := core.NewOwner("agent")

	job, _ := m.Launch(ctx, owner, jobs.LaunchRequest{Command: "sleep", Args: []string{"300"}, Group: "watchers"})
	end, err := m.Stop(ctx, owner, job.ID, jobs.StopOptions{Drop: true})
	fmt.Println(end.State, end.StopReason, end.Signal, err)
	_, err = m.Get(owner, job.ID)
	fmt.Println(core.CodeOf(err))
	// Output:
	// stopped user SIGTERM <nil>
	// NO_SESSION
}

func ExampleConfig_Validate() {
	_, err := jobs.Config{BufferCapacity: 50}.Validate()
	fmt.Println(err)
	// Output: jobs: invalid configuration: BufferCapacity = 50: must be 100 to 200000 lines
}
