package ptysession_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/ptysession"
)

// Open a program, type a line into it, tail what it printed, and close it.
// Here the program is cat on the "exec" backend (argv, no shell): the
// terminal echoes the line and cat prints it back.
func Example() {
	ctx := context.Background()
	s, err := ptysession.NewLocal(ptysession.Options{Backend: "exec"})
	if err != nil {
		panic(err)
	}
	defer s.Shutdown(ctx)
	owner := ptysession.NewOwner("agent-1")

	opened, err := s.Open(ctx, owner, ptysession.OpenRequest{Command: "cat"})
	if err != nil {
		panic(err)
	}
	sent, err := s.Send(ctx, owner, opened.SessionID, ptysession.SendRequest{Data: "hello"})
	if err != nil {
		panic(err)
	}
	fmt.Printf("delta %q, %s\n", sent.Delta, sent.Status)

	tail, _ := s.Tail(ctx, owner, opened.SessionID, 0)
	fmt.Printf("tail %q (%d lines)\n", tail.Text, tail.Lines)
	tail, _ = s.Tail(ctx, owner, opened.SessionID, 0)
	fmt.Printf("again %q\n", tail.Text)

	closed, _ := s.Close(ctx, owner, opened.SessionID)
	fmt.Println("closed:", closed.Closed)
	closed, _ = s.Close(ctx, owner, opened.SessionID)
	fmt.Println("closed again:", closed.Closed)
	// Output:
	// delta "hello\nhello\n", running
	// tail "" (0 lines)
	// again ""
	// closed: true
	// closed again: false
}

// Bring a service of your own (its options, its logger, backends you
// registered) and put the facade over it: here the local PTY backends on
// a service whose log is discarded.
func ExampleNew() {
	ctx := context.Background()
	svc := core.New(core.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err := localpty.Register(svc); err != nil {
		panic(err)
	}
	defer svc.Shutdown(ctx)
	s := ptysession.New(svc, ptysession.Options{})
	owner := ptysession.NewOwner("agent-1")
	opened, err := s.Open(ctx, owner, ptysession.OpenRequest{Command: "bash"})
	if err != nil {
		panic(err)
	}
	sent, err := s.Send(ctx, owner, opened.SessionID, ptysession.SendRequest{Data: "echo $((6*7))", OmitEcho: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(sent.WaitReason, *sent.ExitCode)
	// Output: prompt 0
}

// SplitCommand turns a command line into argv for argv backends.
func ExampleSplitCommand() {
	argv, err := ptysession.SplitCommand(`gdb -q --args ./prog "two words" 'it'\''s'`)
	fmt.Printf("%q %v\n", argv, err)
	// Output:
	// ["gdb" "-q" "--args" "./prog" "two words" "it's"] <nil>
}

// QuoteEnv spells an export for a shell that only takes typed text.
func ExampleQuoteEnv() {
	st, _ := ptysession.QuoteEnv("GREETING", "it's here")
	fmt.Println(st)
	st, _ = ptysession.QuoteEnv("TABBED", "a\tb")
	fmt.Println(st)
	// Output:
	// export GREETING='it'\''s here'
	// TABBED=$(printf 'a\011b'); export TABBED
}
