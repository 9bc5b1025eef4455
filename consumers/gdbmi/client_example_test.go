package gdbmi_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/consumers/gdbmi"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// Example debugs testdata/simple.c from start to finish: a breakpoint, a
// stop, the stack, variables, an expression, a step, and the exit code.
// It needs gcc and gdb.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	dir, err := os.MkdirTemp("", "gdbmi-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	prog := filepath.Join(dir, "simple")
	build := exec.Command("gcc", "-g", "-O0", "-o", prog, "simple.c")
	build.Dir = "testdata"
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Println("gcc:", err, string(out))
		return
	}

	svc := core.New(core.Options{Logger: slog.New(slog.DiscardHandler)})
	defer svc.Shutdown(context.Background())
	if err := localpty.Register(svc); err != nil {
		fmt.Println(err)
		return
	}

	gdb, err := gdbmi.Start(ctx, svc, gdbmi.Options{Program: prog, Args: []string{"5"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer gdb.Close(context.Background())

	bp, _ := gdb.BreakInsert(ctx, "add")
	fmt.Printf("breakpoint %s at %s:%d\n", bp.Number, bp.File, bp.Line)

	_ = gdb.Run(ctx)
	stop, _ := gdb.WaitStopped(ctx)
	fmt.Printf("stopped: %s in %s at %s:%d\n", stop.Reason, stop.Frame.Func, stop.Frame.File, stop.Frame.Line)

	frames, _ := gdb.StackFrames(ctx)
	for _, f := range frames {
		fmt.Printf("  #%d %s line %d\n", f.Level, f.Func, f.Line)
	}
	args, _ := gdb.Arguments(ctx)
	for _, a := range args {
		fmt.Printf("  arg %s = %s\n", a.Name, a.Value)
	}

	_ = gdb.Next(ctx)
	stop, _ = gdb.WaitStopped(ctx)
	fmt.Printf("next: line %d\n", stop.Frame.Line)
	_ = gdb.BreakDelete(ctx)
	v, _ := gdb.Evaluate(ctx, "sum + 6 * 7")
	fmt.Println("sum + 6 * 7 =", v)
	if _, err := gdb.Evaluate(ctx, "nosuchvar"); err != nil {
		fmt.Println("error:", err.(*gdbmi.MIError).Msg)
	}

	_ = gdb.Continue(ctx)
	stop, _ = gdb.WaitStopped(ctx)
	fmt.Printf("%s with code %d\n", stop.Reason, stop.ExitCode)

	// The program printed on its own terminal, not into the MI stream;
	// that terminal's session may read its last line a moment after gdb
	// reported the exit: read until it shows (the example's context
	// bounds the wait).
	var page core.PageResult
	for ctx.Err() == nil {
		if page, _ = gdb.ProgramOutput(core.PageRequest{Count: 100}); strings.Contains(page.Text(), "total=") {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, l := range page.Lines {
		if strings.Contains(l, "total=") {
			fmt.Println("program said:", l)
		}
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
