package remote_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// A host and an agent on the two ends of one stream: here an in-memory
// pipe and an agent in the same process; in production the agent is
// `ptyseam agent` on the far side of an ssh exec channel or a container's
// exec stream. The send settles on the far shell's prompt marker.
func Example() {
	ctx := context.Background()
	hostEnd, agentEnd := net.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- remote.Serve(ctx, agentEnd, remote.AgentOptions{Logger: slog.New(slog.DiscardHandler)})
	}()

	c, err := remote.Connect(ctx, hostEnd)
	if err != nil {
		fmt.Println(err)
		return
	}
	svc := core.New(core.Options{Logger: slog.New(slog.DiscardHandler)})
	if _, err := svc.Register(c.Backend("remote-shell", remote.AgentShell)); err != nil {
		fmt.Println(err)
		return
	}
	owner := core.NewOwner("example")
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "remote-shell"})
	if err != nil {
		fmt.Println(err)
		return
	}
	op, err := svc.Send(ctx, owner, s.ID, core.SendRequest{Data: "echo $((6*7))"})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := op.Wait(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.WaitReason, strings.Contains(res.Delta, "42"), *res.ExitCode)

	_ = svc.Shutdown(ctx) // closes the session on the far side
	_ = c.Close()         // ends the stream: the agent returns
	fmt.Println(<-served)
	// Output:
	// prompt true 0
	// <nil>
}
