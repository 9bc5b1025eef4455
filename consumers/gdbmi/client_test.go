package gdbmi

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestBreakRunStopAndInspect(t *testing.T) {
	c, _ := startGDB(t, "simple", Options{})
	ctx := testCtx(t)
	if c.MIVersion() != "mi3" {
		t.Errorf("MIVersion %q", c.MIVersion())
	}
	bp, err := c.BreakInsert(ctx, "add")
	if err != nil {
		t.Fatal(err)
	}
	if bp.Number != "1" || bp.Func != "add" || bp.File != "simple.c" || bp.Line != 9 || !bp.Enabled {
		t.Errorf("breakpoint %+v", bp)
	}
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := c.WaitStopped(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Reason != "breakpoint-hit" || st.BreakpointNumber != "1" || st.ThreadID != 1 || st.Frame == nil {
		t.Fatalf("stop %+v", st)
	}
	if f := st.Frame; f.Func != "add" || f.File != "simple.c" || f.Line != 9 || f.Addr == 0 || !strings.HasSuffix(f.Fullname, "testdata/simple.c") {
		t.Errorf("frame %+v", f)
	}
	if st.StoppedThreads.Str() != "all" {
		t.Errorf("stopped-threads %v", st.StoppedThreads)
	}

	frames, err := c.StackFrames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var funcs []string
	for _, f := range frames {
		funcs = append(funcs, f.Func)
	}
	if strings.Join(funcs, ",") != "add,twice,main" || frames[1].Line != 15 || frames[2].Level != 2 {
		t.Errorf("frames %v (%+v)", funcs, frames)
	}
	args, err := c.Arguments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	locals, err := c.Locals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(args) != 2 || args[0].Name != "a" || args[1].Name != "b" || args[0].Value != "0" {
		t.Errorf("arguments %+v", args)
	}
	if len(locals) != 1 || locals[0].Name != "sum" {
		t.Errorf("locals %+v", locals)
	}

	// Console text is collected for the command that caused it.
	text, err := c.Console(ctx, "info frame")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "Stack level 0") || !strings.Contains(text, "simple.c:9") {
		t.Errorf("console text %q", text)
	}
	list, err := c.BreakList(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Times != 1 || list[0].Func != "add" {
		t.Errorf("break list %+v", list)
	}
}

func TestStepNextFinish(t *testing.T) {
	c, _ := startGDB(t, "simple", Options{})
	ctx := testCtx(t)
	if _, err := c.BreakInsert(ctx, "twice"); err != nil {
		t.Fatal(err)
	}
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := c.WaitStopped(ctx)
	if err != nil || st.Frame.Func != "twice" || st.Frame.Line != 15 {
		t.Fatalf("first stop %+v %v", st, err)
	}
	// step enters add.
	if err := c.Step(ctx); err != nil {
		t.Fatal(err)
	}
	st, err = c.WaitStopped(ctx)
	if err != nil || st.Reason != "end-stepping-range" || st.Frame.Func != "add" || st.Frame.Line != 9 {
		t.Fatalf("after step %+v %v", st, err)
	}
	// next stays in add, one line on.
	if err := c.Next(ctx); err != nil {
		t.Fatal(err)
	}
	st, err = c.WaitStopped(ctx)
	if err != nil || st.Reason != "end-stepping-range" || st.Frame.Func != "add" || st.Frame.Line != 10 {
		t.Fatalf("after next %+v %v", st, err)
	}
	// finish returns to twice with add's value.
	if err := c.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	st, err = c.WaitStopped(ctx)
	if err != nil || st.Reason != "function-finished" || st.Frame.Func != "twice" || st.ReturnValue != "0" {
		t.Fatalf("after finish %+v %v", st, err)
	}
	// next over a call line in twice.
	if err := c.Next(ctx); err != nil {
		t.Fatal(err)
	}
	st, err = c.WaitStopped(ctx)
	if err != nil || st.Frame.Func != "twice" || st.Frame.Line != 16 {
		t.Fatalf("after second next %+v %v", st, err)
	}
}

func TestEvaluateAndErrors(t *testing.T) {
	c, _ := startGDB(t, "simple", Options{})
	ctx := testCtx(t)
	if _, err := c.BreakInsert(ctx, "add"); err != nil {
		t.Fatal(err)
	}
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitStopped(ctx); err != nil {
		t.Fatal(err)
	}
	v, err := c.Evaluate(ctx, "a + b * 10 + sizeof(int)")
	if err != nil || v != "4" {
		t.Errorf("evaluate: %q %v", v, err)
	}
	_, err = c.Evaluate(ctx, "nosuchsymbol")
	var me *MIError
	if !errors.As(err, &me) || !errors.Is(err, ErrGDBError) || me.Msg != `No symbol "nosuchsymbol" in current context.` {
		t.Fatalf("missing symbol: %v", err)
	}
	_, err = c.Exec(ctx, "-no-such-command")
	if !errors.As(err, &me) || me.Code != "undefined-command" {
		t.Fatalf("undefined command: %v", err)
	}
	// Calling a function of the program answers 42 where the kernel lets
	// gdb write the registers it needs, and a gdb error where it does not
	// (some virtual machines); either way the session goes on.
	if err := c.BreakDelete(ctx); err != nil {
		t.Fatal(err)
	}
	if v, err := c.Evaluate(ctx, "twice(21)"); err == nil && v != "42" || err != nil && !errors.As(err, &me) {
		t.Errorf("function call: %q %v", v, err)
	} else if err != nil {
		t.Logf("this machine refuses inferior calls: %v", err)
	}
	// Non-ASCII text in the program's data comes back as the same bytes.
	g, err := c.Evaluate(ctx, "greeting")
	if err != nil || !strings.Contains(g, `"héllo wörld ✓ 日本"`) {
		t.Errorf("greeting %q %v", g, err)
	}
	// Arguments with quotes, blanks and backslashes are quoted for gdb.
	s, err := c.Evaluate(ctx, `sizeof("a \"b\" \\ c")`)
	if err != nil || s != "10" {
		t.Errorf("quoted argument: %q %v", s, err)
	}
	if _, err := c.Exec(ctx, "-gdb-set\nfoo"); !errors.Is(err, ErrInvalidCommand) {
		t.Errorf("newline in command: %v", err)
	}
	// A command longer than the terminal's 4095-byte canonical line limit.
	long := "1" + strings.Repeat("+1", 5000)
	if v, err := c.Evaluate(ctx, long); err != nil || v != "5001" {
		t.Errorf("long command: %q %v", v, err)
	}
	// Console output of a CLI command.
	out, err := c.Console(ctx, `echo hi\n`)
	if err != nil || out != "hi\n" {
		t.Errorf("echo: %q %v", out, err)
	}
}

func TestConcurrentExec(t *testing.T) {
	c, _ := startGDB(t, "", Options{})
	ctx := testCtx(t)
	const n = 40
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			expr := strings.Repeat("1+", i) + "0"
			v, err := c.Evaluate(ctx, expr)
			if err == nil && v != itoa(i) {
				err = errors.New("expression " + expr + " gave " + v)
			}
			errs <- err
		}()
	}
	for i := 0; i < n; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func TestExitCodes(t *testing.T) {
	for _, code := range []string{"3", "10"} {
		t.Run(code, func(t *testing.T) {
			opts := Options{}
			if code != "3" {
				opts.Args = []string{code}
			}
			c, _ := startGDB(t, "simple", opts)
			ctx := testCtx(t)
			if err := c.Run(ctx); err != nil {
				t.Fatal(err)
			}
			st, err := c.WaitStopped(ctx)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]int{"3": 3, "10": 10}[code]
			if st.Reason != "exited" || st.ExitCode != want || !st.Exited() {
				t.Fatalf("stop %+v, want exit code %d", st, want)
			}
			// The program's output went to its own terminal, and is
			// there when the exit is reported.
			if out := programText(t, c); !strings.Contains(out, "héllo wörld ✓ 日本 total=6") {
				t.Errorf("program output %q", out)
			}
		})
	}
}

func TestCrash(t *testing.T) {
	c, _ := startGDB(t, "crash", Options{})
	ctx := testCtx(t)
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := c.WaitStopped(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Reason != "signal-received" || st.SignalName != "SIGSEGV" || st.SignalMeaning != "Segmentation fault" || st.Frame.Func != "poke" || st.Frame.Line != 6 {
		t.Fatalf("stop %+v frame %+v", st, st.Frame)
	}
	if err := c.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	st, err = c.WaitStopped(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Reason != "exited-signalled" || st.SignalName != "SIGSEGV" || !st.Exited() {
		t.Fatalf("stop %+v", st)
	}
	if out := programText(t, c); !strings.Contains(out, "about to crash") {
		t.Errorf("program output %q", out)
	}
}

// TestProgramOutputLooksLikeMI runs a program that prints MI-like lines; as
// it has its own terminal, none of them reaches the MI stream.
func TestProgramOutputLooksLikeMI(t *testing.T) {
	c, _ := startGDB(t, "tricky", Options{})
	ctx := testCtx(t)
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := c.WaitStopped(ctx)
	if err != nil || st.Reason != "exited-normally" {
		t.Fatalf("stop %+v %v", st, err)
	}
	v, err := c.Evaluate(ctx, "6*7")
	if err != nil || v != "42" {
		t.Fatalf("evaluate after the program: %q %v", v, err)
	}
	out := programText(t, c)
	for _, want := range []string{"^done", `*stopped,reason="x"`, "(gdb)", `123^error,msg="fake"`} {
		if !strings.Contains(out, want) {
			t.Errorf("program output lacks %q: %q", want, out)
		}
	}
	evs := eventsUntilStop(t, ctx, c, StopExitedNormally)
	if len(evs) < 5 {
		t.Errorf("only %d events", len(evs))
	}
	for _, ev := range evs {
		if ev.Err != nil {
			t.Errorf("non-MI line in gdb's stream: %q", ev.Text)
		}
		if ev.Stopped != nil && ev.Stopped.Reason == "x" {
			t.Errorf("the program's fake *stopped reached the client")
		}
		if ev.Record.Type == RecordNotify && ev.Record.Get("id").Str() == "i9" {
			t.Errorf("the program's fake notification reached the client")
		}
	}
}

func TestThreads(t *testing.T) {
	c, _ := startGDB(t, "threads", Options{})
	ctx := testCtx(t)
	if _, err := c.BreakInsert(ctx, "work"); err != nil {
		t.Fatal(err)
	}
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := c.WaitStopped(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Reason != "breakpoint-hit" || st.Frame.Func != "work" || st.ThreadID < 2 {
		t.Fatalf("stop %+v", st)
	}
	ti, err := c.Threads(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ti.Threads) < 2 || ti.CurrentThreadID != st.ThreadID {
		t.Fatalf("threads %+v", ti)
	}
	var found bool
	for _, th := range ti.Threads {
		if th.ID == ti.CurrentThreadID && th.Frame != nil && th.Frame.Func == "work" && th.State == "stopped" {
			found = true
		}
	}
	if !found {
		t.Errorf("current thread not in work: %+v", ti.Threads)
	}
	if err := c.SelectThread(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if err := c.BreakDelete(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	st, err = c.WaitStopped(ctx)
	if err != nil || st.Reason != "exited-normally" {
		t.Fatalf("end %+v %v", st, err)
	}
	// The events came in order: threads created before the breakpoint
	// stop, which came before the exit.
	var order []string
	for _, ev := range eventsUntilStop(t, ctx, c, StopExitedNormally) {
		switch {
		case ev.Thread != nil && ev.Record.Class == "thread-created":
			order = append(order, "created")
		case ev.Breakpoint != nil && ev.Record.Class == "breakpoint-modified" && ev.Breakpoint.Times == 1:
			order = append(order, "bp-count")
		case ev.Library != nil && strings.Contains(ev.Library.TargetName, "libc.so"):
			order = append(order, "libc")
		case ev.Stopped != nil:
			order = append(order, string(ev.Stopped.Reason))
		}
	}
	s := strings.Join(order, ",")
	// Library loads may come between thread creations: count them.
	if strings.Count(s[:max(0, strings.Index(s, "breakpoint-hit"))], "created") < 2 || !strings.Contains(s, "libc") || !strings.Contains(s, "bp-count,") || strings.Index(s, "created") > strings.Index(s, "breakpoint-hit") ||
		strings.Index(s, "breakpoint-hit") > strings.Index(s, "exited-normally") {
		t.Errorf("event order %s", s)
	}
}

func TestInterruptEndlessLoop(t *testing.T) {
	c, svc := startGDB(t, "loop", Options{})
	ctx := testCtx(t)
	tap, err := svc.Tap(c.Owner(), c.ProgramSession())
	if err != nil {
		t.Fatal(err)
	}
	defer tap.Close()
	// waitLooping waits until the program prints "looping N" with N above
	// min: the loop spins past that count.
	var seen string
	waitLooping := func(min uint64) {
		for {
			for _, l := range strings.Split(seen, "\n") {
				var n uint64
				if _, err := fmt.Sscanf(strings.TrimSpace(l), "looping %d", &n); err == nil && n > min {
					return
				}
			}
			chunk, err := tap.Next(ctx)
			if err != nil {
				t.Fatalf("program output %q: %v", seen, err)
			}
			seen += string(chunk)
		}
	}
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	var last uint64
	for round := 0; round < 2; round++ {
		if round > 0 {
			if err := c.Continue(ctx); err != nil {
				t.Fatal(err)
			}
		}
		waitLooping(last)
		if err := c.Interrupt(ctx); err != nil {
			t.Fatal(err)
		}
		st, err := c.WaitStopped(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Reason != "signal-received" || st.SignalName != "SIGINT" || st.Frame == nil || st.ThreadID != 1 {
			t.Fatalf("round %d: stop %+v", round, st)
		}
		v, err := c.Evaluate(ctx, "counter")
		if err != nil {
			t.Fatal(err)
		}
		n, err := StringValue(v).Uint()
		if err != nil || n <= last {
			t.Fatalf("round %d: counter %q (before %d) %v", round, v, last, err)
		}
		last = n
	}
}

func TestLargeResponse(t *testing.T) {
	c, _ := startGDB(t, "big", Options{})
	ctx := testCtx(t)
	if _, err := c.BreakInsert(ctx, "big.c:12"); err != nil {
		t.Fatal(err)
	}
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitStopped(ctx); err != nil {
		t.Fatal(err)
	}
	for _, set := range [][]string{{"print", "elements", "unlimited"}, {"print", "repeats", "unlimited"}, {"max-value-size", "unlimited"}} {
		if _, err := c.Exec(ctx, "-gdb-set", set...); err != nil {
			t.Fatal(err)
		}
	}
	v, err := c.Evaluate(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Repeat("abcdefghijklmnopqrstuvwxyz", 300000/26+1)[:299999]
	if !strings.Contains(v, want) {
		t.Errorf("big: %d bytes, want the %d-byte string inside", len(v), len(want))
	}
	res, err := c.Exec(ctx, "-data-read-memory-bytes", "big", "300000")
	if err != nil {
		t.Fatal(err)
	}
	contents := res.Get("memory").Index(0).Get("contents").Str()
	if len(contents) != 600000 || !strings.HasPrefix(contents, "6162636465") {
		t.Errorf("memory contents: %d hex digits, starts %.20q", len(contents), contents)
	}
}

func TestGDBKilledMidCommand(t *testing.T) {
	c, svc := startGDB(t, "", Options{})
	ctx := testCtx(t)
	info, err := svc.Info(c.Owner(), c.GDBSession())
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := c.Console(ctx, "shell sleep 60")
		done <- err
	}()
	// Wait until gdb runs the command (its child sleeps), then kill gdb.
	waitForChild(t, ctx, info.PID, "sleep")
	killPID(t, info.PID)
	err = <-done
	var ee *ExitedError
	if !errors.As(err, &ee) || !errors.Is(err, ErrExited) {
		t.Fatalf("pending Exec returned %v, want an ExitedError", err)
	}
	if ee.Status.Signal != "SIGKILL" {
		t.Errorf("status %v", ee.Status)
	}
	// Every later call fails at once with the same error.
	if _, err := c.Evaluate(context.Background(), "1"); !errors.Is(err, ErrExited) {
		t.Errorf("later Exec: %v", err)
	}
	if _, err := c.WaitStopped(context.Background()); !errors.Is(err, ErrExited) {
		t.Errorf("WaitStopped: %v", err)
	}
	<-c.Done()
	if !errors.Is(c.Err(), ErrExited) {
		t.Errorf("Err() = %v", c.Err())
	}
	for range c.Events() {
	}
}

func TestExecCancelledByContext(t *testing.T) {
	c, _ := startGDB(t, "", Options{})
	ctx := testCtx(t)
	cctx, cancel := context.WithCancel(ctx)
	go func() {
		_, _ = c.Console(ctx, "shell sleep 0.5")
	}()
	cancel()
	if _, err := c.Evaluate(cctx, "1"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Exec: %v", err)
	}
	// The client stays usable and answers are not mixed up.
	for i := 0; i < 3; i++ {
		v, err := c.Evaluate(ctx, itoa(i)+"+100")
		if err != nil || v != itoa(i+100) {
			t.Fatalf("after cancel: %q %v", v, err)
		}
	}
}

func TestCloseThenCall(t *testing.T) {
	c, _ := startGDB(t, "", Options{})
	ctx := testCtx(t)
	if err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(ctx); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := c.Evaluate(ctx, "1"); !errors.Is(err, ErrClosed) {
		t.Fatalf("Exec after Close: %v", err)
	}
	if _, ok := <-c.Events(); ok {
		// Events may still hold a few; drain.
		for range c.Events() {
		}
	}
}
