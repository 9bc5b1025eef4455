package ptysession_test

import (
	"context"
	"fmt"
	"time"

	"github.com/ptyseam/ptyseam/ptysession"
)

// Start a server in one named terminal and wait for its ready line before
// using it from another, all through an agent's handles: a condition
// without a target watches the terminal it is asked of.
func ExampleTerminal_Wait() {
	ctx := context.Background()
	s, err := ptysession.NewLocal(ptysession.Options{})
	if err != nil {
		panic(err)
	}
	defer s.Shutdown(ctx)
	agent := s.NewAgent("example")
	defer agent.Dispose(ctx)
	server := agent.Terminal("server")
	if _, _, err := server.Open(ctx, ptysession.OpenRequest{Command: "bash"}); err != nil {
		panic(err)
	}
	// The send returns after 200 ms; the server says it is ready later.
	if _, err := server.Send(ctx, ptysession.SendRequest{
		Data: "sleep 1; echo listening on 8$((2*4))00; sleep 60", Timeout: 200 * time.Millisecond, QuietWindow: time.Minute,
	}); err != nil {
		panic(err)
	}
	r, err := server.Wait(ctx, ptysession.WaitRequest{
		Conditions: []ptysession.WaitCondition{
			{Kind: ptysession.WaitOutput, Pattern: `^listening on \d+`},
			{Kind: ptysession.WaitExit},
		},
		Timeout: 30 * time.Second,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Fired, r.Condition, r.Line)
	found, err := server.Search(ctx, ptysession.SearchRequest{Pattern: `listening`})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(found.Matches), found.Matches[len(found.Matches)-1].Text)
	// Output:
	// true 0 listening on 8800
	// 2 listening on 8800
}
