package main

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/consumers/gdbmi"
	"github.com/ptyseam/ptyseam/core"
)

//go:embed demodata/fib.c
var fibSource []byte

func demoGDB(ctx context.Context, d *demo) error {
	for _, tool := range []string{"gdb", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			fmt.Fprintf(d.out, "  skipped: %s is not installed (apt-get install gdb gcc)\n", tool)
			return nil
		}
	}
	dir, err := os.MkdirTemp("", "ptyseam-demo")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	src, prog := filepath.Join(dir, "fib.c"), filepath.Join(dir, "fib")
	if err := os.WriteFile(src, fibSource, 0o644); err != nil {
		return err
	}
	if out, err := exec.CommandContext(ctx, "gcc", "-g", "-O0", "-o", prog, src).CombinedOutput(); err != nil {
		return fmt.Errorf("gcc: %v: %s", err, out)
	}
	gdb, err := gdbmi.Start(ctx, d.svc, gdbmi.Options{Program: prog, Owner: d.owner})
	if err != nil {
		return err
	}
	defer gdb.Close(context.Background())
	fmt.Fprintln(d.out, "  gdb -i=mi3 runs on a ptyseam session; the program has a terminal of its own")
	bp, err := gdb.BreakInsert(ctx, "fib")
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, "  -break-insert fib -> breakpoint %s at %s:%d\n", bp.Number, bp.File, bp.Line)
	if err := gdb.Run(ctx); err != nil {
		return err
	}
	stop, err := gdb.WaitStopped(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, "  -exec-run -> *stopped reason=%s in %s at %s:%d\n", stop.Reason, stop.Frame.Func, stop.Frame.File, stop.Frame.Line)
	frames, err := gdb.StackFrames(ctx)
	if err != nil {
		return err
	}
	for _, f := range frames {
		fmt.Fprintf(d.out, "    #%d %s line %d\n", f.Level, f.Func, f.Line)
	}
	v, err := gdb.Evaluate(ctx, "n * 2")
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, "  -data-evaluate-expression \"n * 2\" -> %s\n", v)
	if _, err := gdb.Evaluate(ctx, "no_such_symbol"); err != nil {
		fmt.Fprintf(d.out, "  -data-evaluate-expression no_such_symbol -> typed error: %v\n", err)
	}
	if err := gdb.BreakDelete(ctx); err != nil {
		return err
	}
	if err := gdb.Continue(ctx); err != nil {
		return err
	}
	stop, err = gdb.WaitStopped(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, "  -exec-continue -> *stopped reason=%s exit code %d\n", stop.Reason, stop.ExitCode)
	// The program's terminal is read by its own session: its last lines
	// can arrive a moment after gdb reported the exit.
	var page core.PageResult
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if page, err = gdb.ProgramOutput(core.PageRequest{Count: 20}); err != nil {
			return err
		}
		if strings.Contains(page.Text(), "fib(10) = 55") || time.Now().After(deadline) {
			break
		}
	}
	var printed []string
	for _, l := range page.Lines {
		if strings.HasPrefix(l, "fib(") {
			printed = append(printed, l)
		}
	}
	d.show("what the program printed on its own terminal (never mixed into the MI stream)", strings.Join(printed, "\n"))
	return expect(stop.ExitCode == 3 && strings.Contains(page.Text(), "fib(10) = 55") && v == "10", "the debugging session went wrong")
}
