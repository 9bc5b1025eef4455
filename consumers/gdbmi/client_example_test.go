package gdbmi_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/ptyseam/ptyseam/consumers/gdbmi"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// Example debugs testdata/simple.c from start to finish: a breakpoint, a
// stop, the stack, variables, an expression, a step, the exit code and
// the program's output. The work is quickStart, which docs/gdbmi.md
// shows as its quick start word for word (TestQuickStartIsTheExample
// checks). It needs gcc and gdb.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	prog, cleanup, err := buildExample("simple")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cleanup()
	if err := quickStart(ctx, prog); err != nil {
		fmt.Println(err)
	}
	// Output:
	// breakpoint 1 at simple.c:9
	// stopped: breakpoint-hit in add at simple.c:9
	//   #0 add line 9
	//   #1 twice line 15
	//   #2 main line 24
	//   arg a = 0
	//   arg b = 0
	// next: line 10
	// sum + 6 * 7 = 42
	// error: No symbol "nosuchvar" in current context.
	// exited with code 5
	// program said: héllo wörld ✓ 日本 total=6
}

// quickStart is docs/gdbmi.md's quick start.
func quickStart(ctx context.Context, prog string) error {
	svc := core.New(core.Options{Logger: slog.New(slog.DiscardHandler)})
	defer svc.Shutdown(context.Background())
	if err := localpty.Register(svc); err != nil { // the "exec" backend
		return err
	}

	gdb, err := gdbmi.Start(ctx, svc, gdbmi.Options{Program: prog, Args: []string{"5"}})
	if err != nil {
		return err // a *gdbmi.StartError; nothing is left running
	}
	defer gdb.Close(context.Background())

	bp, err := gdb.BreakInsert(ctx, "add")
	if err != nil {
		return err
	}
	fmt.Printf("breakpoint %s at %s:%d\n", bp.Number, bp.File, bp.Line)

	if err := gdb.Run(ctx); err != nil { // returns on ^running
		return err
	}
	stop, err := gdb.WaitStopped(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("stopped: %s in %s at %s:%d\n", stop.Reason, stop.Frame.Func, stop.Frame.File, stop.Frame.Line)

	frames, err := gdb.StackFrames(ctx)
	if err != nil {
		return err
	}
	for _, f := range frames {
		fmt.Printf("  #%d %s line %d\n", f.Level, f.Func, f.Line)
	}
	args, err := gdb.Arguments(ctx)
	if err != nil {
		return err
	}
	for _, a := range args {
		fmt.Printf("  arg %s = %s\n", a.Name, a.Value)
	}

	if err := gdb.Next(ctx); err != nil {
		return err
	}
	if stop, err = gdb.WaitStopped(ctx); err != nil {
		return err
	}
	fmt.Printf("next: line %d\n", stop.Frame.Line)
	if err := gdb.BreakDelete(ctx); err != nil { // no number: all of them
		return err
	}
	v, err := gdb.Evaluate(ctx, "sum + 6 * 7")
	if err != nil {
		return err
	}
	fmt.Println("sum + 6 * 7 =", v)
	var mierr *gdbmi.MIError
	if _, err := gdb.Evaluate(ctx, "nosuchvar"); errors.As(err, &mierr) {
		fmt.Println("error:", mierr.Msg)
	}

	if err := gdb.Continue(ctx); err != nil {
		return err
	}
	if stop, err = gdb.WaitStopped(ctx); err != nil {
		return err
	}
	fmt.Printf("%s with code %d\n", stop.Reason, stop.ExitCode)

	// The program printed on its own terminal, not into the MI stream.
	// A stop is reported once everything the program printed before it
	// is on that terminal's session: read it at once.
	page, err := gdb.ProgramOutput(core.PageRequest{Newest: true, Count: 10})
	if err != nil {
		return err
	}
	for _, l := range page.Lines {
		fmt.Println("program said:", l)
	}
	return nil
}
