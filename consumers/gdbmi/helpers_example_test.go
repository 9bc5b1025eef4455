package gdbmi_test

import (
	"bufio"
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/consumers/gdbmi"
)

// buildExample compiles testdata/<name>.c with gcc -g -O0 into a
// temporary directory; cleanup removes it.
func buildExample(name string) (prog string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "gdbmi-example")
	if err != nil {
		return "", nil, err
	}
	prog = filepath.Join(dir, name)
	build := exec.Command("gcc", "-g", "-O0", "-pthread", "-o", prog, name+".c")
	build.Dir = "testdata"
	if out, err := build.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("gcc: %v: %s", err, out)
	}
	return prog, func() { os.RemoveAll(dir) }, nil
}

// startExample builds testdata/<name>.c and starts gdb on it with opts;
// stop closes gdb (and with it the program and the service) and removes
// the build.
func startExample(ctx context.Context, name string, opts gdbmi.Options) (gdb *gdbmi.Client, stop func(), err error) {
	prog, cleanup, err := buildExample(name)
	if err != nil {
		return nil, nil, err
	}
	opts.Program = prog
	if gdb, err = gdbmi.StartLocal(ctx, opts); err != nil {
		cleanup()
		return nil, nil, err
	}
	return gdb, func() { gdb.Close(context.Background()); cleanup() }, nil
}

// ExampleStartLocal starts gdb and a service of its own in one call, and
// passes arguments that a shell would expand, split or run: the program
// (testdata/args.c prints each argument in hex) receives them as they are.
func ExampleStartLocal() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	prog, cleanup, err := buildExample("args")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cleanup()

	gdb, err := gdbmi.StartLocal(ctx, gdbmi.Options{
		Program: prog,
		Args:    []string{"it's", "$HOME", "a;b", "two words", ""},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer gdb.Close(context.Background()) // gdb, the program and the service

	_ = gdb.Run(ctx)
	m, err := gdb.WaitProgramOutput(ctx, regexp.MustCompile(`args done`))
	if err != nil {
		fmt.Println(err)
		return
	}
	sc := bufio.NewScanner(strings.NewReader(m.Text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if _, h, ok := strings.Cut(line, "=["); ok {
			b, _ := hex.DecodeString(strings.TrimSuffix(h, "]"))
			fmt.Printf("%q\n", b)
		}
	}
	// Output:
	// "it's"
	// "$HOME"
	// "a;b"
	// "two words"
	// ""
}

// ExampleClient_Console runs CLI commands and gets exactly their own
// output.
func ExampleClient_Console() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	gdb, err := gdbmi.StartLocal(ctx, gdbmi.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer gdb.Close(context.Background())

	text, _ := gdb.Console(ctx, `echo hello\n`)
	fmt.Printf("%q\n", text)
	text, _ = gdb.Console(ctx, "print 6 * 7")
	fmt.Printf("%q\n", text)
	_, err = gdb.Console(ctx, "frobnicate")
	fmt.Println(err.(*gdbmi.MIError).Msg)
	// Output:
	// "hello\n"
	// "$1 = 42\n"
	// Undefined command: "frobnicate".  Try "help".
}

// ExampleInFrame reads the callers' variables at a breakpoint without
// changing gdb's selected frame.
func ExampleInFrame() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	gdb, stop, err := startExample(ctx, "simple", gdbmi.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stop()

	_, _ = gdb.BreakInsert(ctx, "add")
	_ = gdb.Run(ctx)
	_, _ = gdb.WaitStopped(ctx)
	_ = gdb.Continue(ctx) // the second call: add(1, 1) from twice(1)
	_, _ = gdb.WaitStopped(ctx)

	args, _ := gdb.Arguments(ctx, gdbmi.InFrame(1))
	fmt.Println("twice:", args[0].Name, "=", args[0].Value)
	locals, _ := gdb.Locals(ctx, gdbmi.InThread(1), gdbmi.InFrame(2))
	for _, l := range locals {
		fmt.Println("main:", l.Name, "=", l.Value)
	}
	v, _ := gdb.Evaluate(ctx, "total + 100", gdbmi.InFrame(2))
	fmt.Println("main: total + 100 =", v)
	f, _ := gdb.SelectedFrame(ctx)
	fmt.Println("selected:", f.Level, f.Func)
	// Output:
	// twice: x = 1
	// main: total = 0
	// main: i = 1
	// main: total + 100 = 100
	// selected: 0 add
}

// ExampleClient_WatchInsert stops each time a global changes, with its old
// and new values. The watchpoints are software ones: some virtual machines
// do not honour the processor's debug registers.
func ExampleClient_WatchInsert() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	gdb, stop, err := startExample(ctx, "watch", gdbmi.Options{SoftwareWatchpoints: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stop()

	_, _ = gdb.BreakInsert(ctx, "main")
	_ = gdb.Run(ctx)
	_, _ = gdb.WaitStopped(ctx)
	wp, _ := gdb.WatchInsert(ctx, "level", gdbmi.WatchWrite)
	fmt.Printf("watchpoint %s on %s\n", wp.Number, wp.Exp)
	for i := 0; i < 3; i++ {
		_ = gdb.Continue(ctx)
		st, _ := gdb.WaitStopped(ctx)
		fmt.Printf("%s: %s %s -> %s in %s\n", st.Reason, st.Watchpoint.Exp, st.Value.Old, st.Value.New, st.Frame.Func)
	}
	// Output:
	// watchpoint 2 on level
	// watchpoint-trigger: level 1 -> 2 in bump
	// watchpoint-trigger: level 2 -> 4 in bump
	// watchpoint-trigger: level 4 -> 7 in bump
}

// ExampleClient_VarCreate expands a struct with variable objects and asks
// gdb what changed after two lines.
func ExampleClient_VarCreate() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	gdb, stop, err := startExample(ctx, "vars", gdbmi.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stop()

	_, _ = gdb.BreakInsert(ctx, "vars.c:18")
	_ = gdb.Run(ctx)
	_, _ = gdb.WaitStopped(ctx)

	s, _ := gdb.VarCreate(ctx, "s")
	fmt.Println(s.Type, "with", s.NumChild, "children")
	kids, _ := gdb.VarChildren(ctx, s.Name)
	for _, k := range kids[1:] {
		fmt.Printf("  %s = %s (%s)\n", k.Exp, k.Value, k.Type)
	}
	for i := 0; i < 2; i++ {
		_ = gdb.Next(ctx)
		_, _ = gdb.WaitStopped(ctx)
	}
	changes, _ := gdb.VarUpdate(ctx, s.Name)
	for _, ch := range changes {
		fmt.Println("changed:", ch.Name == kids[2].Name, ch.Value)
	}
	n, _ := gdb.VarDelete(ctx, s.Name)
	fmt.Println("deleted", n)
	// Output:
	// struct shape with 3 children
	//   corners = [2] (struct point [2])
	//   sides = 4 (int)
	// changed: true 5
	// deleted 4
}

// ExampleClient_Attach debugs a process gdb did not start, then lets it
// go: it keeps running after Detach (and after Close).
func ExampleClient_Attach() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	prog, cleanup, err := buildExample("spin")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cleanup()
	spin := exec.Command(prog)
	if err := spin.Start(); err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = spin.Process.Kill(); _ = spin.Wait() }()

	gdb, err := gdbmi.StartLocal(ctx, gdbmi.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer gdb.Close(context.Background())

	if err := gdb.Attach(ctx, spin.Process.Pid); err != nil {
		fmt.Println(err)
		return
	}
	_, _ = gdb.WaitStopped(ctx)
	pid, _ := gdb.ProgramPID(ctx)
	fmt.Println("attached to the process:", pid == spin.Process.Pid)
	v, _ := gdb.Evaluate(ctx, "ticks > 0")
	fmt.Println("ticks > 0:", v)
	_ = gdb.Detach(ctx)
	_, err = gdb.ProgramPID(ctx)
	fmt.Println("after detach:", err)
	// Output:
	// attached to the process: true
	// ticks > 0: 1
	// after detach: gdbmi: no live process
}

// ExampleClient_WaitProgramOutput talks to a program through its own
// terminal, which is its controlling terminal: a Ctrl-C written to it
// stops the program in gdb.
func ExampleClient_WaitProgramOutput() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	gdb, stop, err := startExample(ctx, "tty", gdbmi.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stop()

	_ = gdb.Run(ctx)
	m, _ := gdb.WaitProgramOutput(ctx, regexp.MustCompile(`tty: .*`))
	fmt.Println(strings.TrimSpace(m.Groups[0]))
	_, _ = gdb.WriteProgram(ctx, []byte("hi there\n"))
	m, _ = gdb.WaitProgramOutput(ctx, regexp.MustCompile(`got <(.*)>`))
	fmt.Println("the program read:", m.Groups[1])
	_, _ = gdb.WriteProgram(ctx, []byte{3}) // Ctrl-C
	st, _ := gdb.WaitStopped(ctx)
	fmt.Println(st.Reason, st.SignalName)
	// Output:
	// tty: isatty=1 devtty=yes foreground=yes
	// the program read: hi there
	// signal-received SIGINT
}
