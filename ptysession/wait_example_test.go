package ptysession_test

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/ptyseam/ptyseam/ptysession"
)

// Wait for a line of output without polling: a shell prints "ready" a
// little after the send returned, and the wait reports the line and its
// number. The wait searches from the first line (FromLine), so the line
// counts even if it came before the wait began.
func ExampleSessions_Wait() {
	ctx := context.Background()
	s, err := ptysession.NewLocal(ptysession.Options{})
	if err != nil {
		panic(err)
	}
	defer s.Shutdown(ctx)
	owner := ptysession.NewOwner("example")
	opened, err := s.Open(ctx, owner, ptysession.OpenRequest{Command: "bash"})
	if err != nil {
		panic(err)
	}
	defer s.Close(ctx, owner, opened.SessionID)
	// The send returns after 300 ms; the line comes later.
	if _, err := s.Send(ctx, owner, opened.SessionID, ptysession.SendRequest{
		Data: "sleep 1; echo ready-$((6*7))", Timeout: 300 * time.Millisecond, QuietWindow: time.Minute,
	}); err != nil {
		panic(err)
	}
	r, err := s.Wait(ctx, owner, ptysession.WaitRequest{
		Conditions: []ptysession.WaitCondition{
			{Kind: ptysession.WaitOutput, Target: string(opened.SessionID), Pattern: `^ready-\d+`, FromLine: new(int64)},
			{Kind: ptysession.WaitExit, Target: string(opened.SessionID)},
		},
		Timeout: 30 * time.Second,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Fired, r.Condition, r.Kind, r.Line)
	// Output: true 0 output ready-42
}

// Check a wait's condition in a loop of your own (as bg_launch's
// readiness does): here, a local port that accepts connections.
func ExampleNewWatch() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	w, err := ptysession.NewWatch(ptysession.WaitCondition{Kind: ptysession.WaitPort, Port: port}, nil)
	if err != nil {
		panic(err)
	}
	res, ok, err := w.Check(context.Background())
	fmt.Println(ok, res.Port == port, err)
	// Output: true true <nil>
}
