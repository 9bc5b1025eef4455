package core_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// Example runs a persistent shell: two sends share state, each explains
// why it returned, and the close leaves nothing behind.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	svc := core.New(core.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err := localpty.Register(svc); err != nil {
		fmt.Println(err)
		return
	}
	defer svc.Shutdown(context.Background())
	agent := core.NewOwner("agent-7")

	s, err := svc.Spawn(ctx, agent, core.SpawnRequest{Type: "shell"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, cmd := range []string{"X=42", "echo x is $X; false"} {
		op, err := svc.Send(ctx, agent, s.ID, core.SendRequest{Data: cmd})
		if err != nil {
			fmt.Println(err)
			return
		}
		res, _ := op.Wait(ctx)
		fmt.Printf("%q -> %s, exit code %d, status %s\n", cmd, res.WaitReason, *res.ExitCode, res.Status)
		if strings.Contains(res.Delta, "x is 42") {
			fmt.Println("output: x is 42")
		}
	}

	// Another owner with the same name is a different owner.
	_, err = svc.Read(core.NewOwner("agent-7"), s.ID, core.PageRequest{})
	fmt.Println("stranger:", core.CodeOf(err))

	closed, _ := svc.Close(ctx, agent, s.ID, "done")
	again, _ := svc.Close(ctx, agent, s.ID, "done")
	fmt.Println("closed:", closed, again)
	// Output:
	// "X=42" -> prompt, exit code 0, status running
	// "echo x is $X; false" -> prompt, exit code 1, status running
	// output: x is 42
	// stranger: FOREIGN_SESSION
	// closed: true false
}

// ExampleService_Send_background reads a long command's output while it
// runs, through the operation's advancing cursor.
func ExampleService_Send_background() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	svc := core.New(core.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	_ = localpty.Register(svc)
	defer svc.Shutdown(context.Background())
	agent := core.NewOwner("agent")
	s, err := svc.Spawn(ctx, agent, core.SpawnRequest{Type: "shell"})
	if err != nil {
		fmt.Println(err)
		return
	}
	op, err := svc.Send(ctx, agent, s.ID, core.SendRequest{Data: "for i in 1 2 3; do echo tick-$i; sleep 0.05; done"})
	if err != nil {
		fmt.Println(err)
		return
	}
	var seen strings.Builder
	for {
		seen.WriteString(op.ReadOutput().Text)
		select {
		case <-op.Done():
			seen.WriteString(op.ReadOutput().Text)
			res, _ := op.Wait(ctx)
			fmt.Println("wait reason:", res.WaitReason)
			fmt.Println("saw tick-3:", strings.Contains(seen.String(), "tick-3"))
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
	// Output:
	// wait reason: prompt
	// saw tick-3: true
}
