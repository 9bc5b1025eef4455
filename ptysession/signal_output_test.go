package ptysession

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/testharness"
)

// onService runs f against a facade over the real service (the seam
// whose sessions stream their output, see tapper).
func onService(t *testing.T, f func(t *testing.T, s *Sessions)) {
	t.Helper()
	for _, sm := range testharness.Seams() {
		if sm.Name == "service" {
			f(t, New(sm.New(t), Options{}))
			return
		}
	}
	t.Fatal("no service seam")
}

// TestSignalReturnsTheOutputThatFollowed interrupts a program whose
// handler prints: the signal's result holds what it printed and the
// shell's next prompt, as a send's delta would.
func TestSignalReturnsTheOutputThatFollowed(t *testing.T) {
	onService(t, func(t *testing.T, s *Sessions) {
		owner, r, ctx := openPrinting(t, s, `bash -c 'trap "echo caught-int; exit 3" INT; echo waiting; cat'`, "waiting\n")
		sr, err := s.Signal(ctx, owner, r.SessionID, "SIGINT")
		if err != nil || !sr.Delivered {
			t.Fatalf("signal: %+v %v", sr, err)
		}
		if !strings.Contains(sr.Output, "caught-int") {
			t.Fatalf("signal output %q, want the handler's line", sr.Output)
		}
		if strings.Contains(sr.Output, "waiting") {
			t.Fatalf("signal output %q repeats output from before the signal", sr.Output)
		}
	})
}

// TestSignalToAJobReturnsOnceTheShellWaitsForInput interrupts a job that
// prints as it ends and then takes longer than the output's quiet window
// to exit: the signal returns once the shell waits for input again, so the
// next send is typed at its prompt (a line typed while the shell took the
// terminal back was echoed and lost under load), and the next send runs.
func TestSignalToAJobReturnsOnceTheShellWaitsForInput(t *testing.T) {
	onService(t, func(t *testing.T, s *Sessions) {
		owner, r, ctx := openPrinting(t, s, `bash -c 'trap "echo ending; sleep 0.8; exit 3" INT; echo waiting; sleep 60 & wait'`, "waiting\n")
		sr, err := s.Signal(ctx, owner, r.SessionID, "SIGINT")
		if err != nil || !sr.Delivered || sr.Leader {
			t.Fatalf("signal: %+v %v", sr, err)
		}
		waiting, ok, err := s.t.(inputProber).WaitingForInput(owner, r.SessionID)
		if err != nil || !ok || !waiting {
			t.Fatalf("right after the signal returned (output %q): waiting %v (can tell %v, %v), want the shell waiting for input", sr.Output, waiting, ok, err)
		}
		after, err := s.Send(ctx, owner, r.SessionID, SendRequest{Data: "echo next-$((6*7))"})
		if err != nil || !strings.Contains(after.Delta, "next-42") {
			t.Fatalf("the send after the signal: %q %v", after.Delta, err)
		}
	})
}

// TestOpenSetsTheTerminalSize opens a shell on an 80x24 terminal; a half
// given size takes the default's other dimension.
func TestOpenSetsTheTerminalSize(t *testing.T) {
	onService(t, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash", Size: core.Size{Rows: 24, Cols: 80}})
		res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "stty size"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Delta, "24 80") {
			t.Fatalf("stty size printed %q, want 24 80", res.Delta)
		}
		half := mustOpen(t, s, owner, OpenRequest{Command: "bash", Size: core.Size{Cols: 100}})
		info, err := s.t.Info(owner, half.SessionID)
		if err != nil {
			t.Fatal(err)
		}
		if want := (core.Size{Rows: core.DefaultSize.Rows, Cols: 100}); info.Size != want {
			t.Fatalf("size %+v, want %+v", info.Size, want)
		}
	})
}

// TestSignalOutputMovesTheTailPosition interrupts a sleep in a shell: the
// signal's result holds the prompt that followed, and, output being
// returned once, the next tail does not return it again.
func TestSignalOutputMovesTheTailPosition(t *testing.T) {
	onService(t, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		ctx := testCtx(t)
		res, err := s.Send(ctx, owner, r.SessionID, SendRequest{Data: "sleep 300", QuietWindow: 200 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if res.WaitReason == core.WaitPrompt {
			t.Fatalf("sleep 300 settled at a prompt: %+v", res)
		}
		// The send settled on its quiet window, which says nothing about
		// sleep: under load the shell may not have started it yet, and a
		// SIGINT that reaches the shell instead leaves sleep running and
		// no prompt to follow. Signal once sleep holds the terminal.
		testharness.WaitForegroundJob(t, r.PID)
		sr, err := s.Signal(ctx, owner, r.SessionID, "SIGINT")
		if err != nil || !sr.Delivered {
			t.Fatalf("signal: %+v %v", sr, err)
		}
		prompt := strings.TrimSpace(lastLine(sr.Output))
		if prompt == "" {
			t.Fatalf("signal output %q, want the prompt that followed", sr.Output)
		}
		tr, err := s.Tail(ctx, owner, r.SessionID, 0)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Text != "" {
			t.Fatalf("tail after the signal returned %q again (signal output %q)", tr.Text, sr.Output)
		}
	})
}

// lastLine returns the text after the last newline of s.
func lastLine(s string) string {
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// TestSignalAJobIgnoresReturnsAtOnceAndSaysSo sends SIGINT to a sleep
// started with SIGINT ignored: the result says the group ignores it and
// names the program that still holds the terminal, without waiting for
// output that cannot come.
func TestSignalAJobIgnoresReturnsAtOnceAndSaysSo(t *testing.T) {
	onService(t, func(t *testing.T, s *Sessions) {
		owner, r, ctx := openWithJob(t, s, "trap '' INT; sleep 60")
		start := time.Now()
		sr, err := s.Signal(ctx, owner, r.SessionID, "SIGINT")
		took := time.Since(start)
		if err != nil || !sr.Delivered || sr.Leader {
			t.Fatalf("signal: %+v %v", sr, err)
		}
		if !sr.Ignored {
			t.Fatalf("signal result %+v: want Ignored (sleep ignores SIGINT)", sr)
		}
		if took >= signalFirstOutput {
			t.Fatalf("the signal took %v: a signal every process ignores has nothing to wait for", took)
		}
		if sr.Foreground == nil || sr.Foreground.Name != "sleep" || sr.Foreground.Group != sr.TargetPGID {
			t.Fatalf("foreground %+v, want sleep in group %d", sr.Foreground, sr.TargetPGID)
		}
		text := RenderSignal(string(r.SessionID), sr)
		for _, want := range []string{"ignore", "sleep (pgid", "SIGTERM"} {
			if !strings.Contains(text, want) {
				t.Errorf("text %q lacks %q", text, want)
			}
		}
		st, err := s.Signal(ctx, owner, r.SessionID, "SIGTERM")
		if err != nil || st.Ignored || st.Foreground != nil {
			t.Fatalf("SIGTERM: %+v %v, want sleep ended and the shell back", st, err)
		}
	})
}

// TestSignalAJobThatRunsOnNamesIt interrupts a program whose handler
// prints and carries on: the result holds what it printed and names the
// program still holding the terminal, so the caller knows it did not end.
func TestSignalAJobThatRunsOnNamesIt(t *testing.T) {
	onService(t, func(t *testing.T, s *Sessions) {
		owner, r, ctx := openPrinting(t, s, `python3 -c 'import signal,time; signal.signal(signal.SIGINT, lambda *a: print("caught", flush=True)); print("ready", flush=True); time.sleep(60)'`, "ready\n")
		sr, err := s.Signal(ctx, owner, r.SessionID, "SIGINT")
		if err != nil || !sr.Delivered || sr.Ignored {
			t.Fatalf("signal: %+v %v", sr, err)
		}
		if !strings.Contains(sr.Output, "caught") {
			t.Fatalf("output %q, want the handler's line", sr.Output)
		}
		if sr.Foreground == nil || !strings.HasPrefix(sr.Foreground.Name, "python3") || sr.Foreground.Group != sr.TargetPGID {
			t.Fatalf("foreground %+v, want python3 still holding the terminal in group %d", sr.Foreground, sr.TargetPGID)
		}
		if text := RenderSignal(string(r.SessionID), sr); !strings.Contains(text, "holds the terminal") {
			t.Fatalf("text %q does not say python3 still holds the terminal", text)
		}
	})
}

// TestSignalContinueToTheShellSaysHowToResumeAJob stops a job, then sends
// SIGCONT, which reaches the terminal's foreground, the shell: the result
// comes at once and says that fg resumes the job.
func TestSignalContinueToTheShellSaysHowToResumeAJob(t *testing.T) {
	onService(t, func(t *testing.T, s *Sessions) {
		owner, r, ctx := openWithJob(t, s, "sleep 60")
		if sr, err := s.Signal(ctx, owner, r.SessionID, "SIGTSTP"); err != nil || !strings.Contains(sr.Output, "Stopped") {
			t.Fatalf("SIGTSTP: %+v %v", sr, err)
		}
		start := time.Now()
		sr, err := s.Signal(ctx, owner, r.SessionID, "SIGCONT")
		if took := time.Since(start); err != nil || !sr.Leader || took >= signalFirstOutput {
			t.Fatalf("SIGCONT: %+v %v after %v, want the shell at once", sr, err, took)
		}
		if text := RenderSignal(string(r.SessionID), sr); !strings.Contains(text, "fg") {
			t.Fatalf("text %q does not say how to resume the stopped job", text)
		}
	})
}

// openWithJob opens a shell, sends it cmd with a short quiet window and
// waits until a job holds its terminal.
func openWithJob(t *testing.T, s *Sessions, cmd string) (*core.Owner, OpenResult, context.Context) {
	t.Helper()
	owner := core.NewOwner("agent")
	r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
	ctx := testCtx(t)
	if _, err := s.Send(ctx, owner, r.SessionID, SendRequest{Data: cmd, QuietWindow: 200 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	testharness.WaitForegroundJob(t, r.PID)
	return owner, r, ctx
}

// openPrinting opens a shell, sends it cmd and waits until the session
// printed line.
func openPrinting(t *testing.T, s *Sessions, cmd, line string) (*core.Owner, OpenResult, context.Context) {
	t.Helper()
	owner := core.NewOwner("agent")
	r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
	ctx := testCtx(t)
	res, err := s.Send(ctx, owner, r.SessionID, SendRequest{Data: cmd})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.ReplaceAll(res.Delta, "\r\n", "\n"), line) {
		waitTailSuffix(t, s, owner, r.SessionID, line)
	}
	return owner, r, ctx
}

// TestBusyJobThatIgnoresInterruptsIsNamed sends a job that ignores
// SIGINT: the send's foreground program says so, and its note tells a
// model that Ctrl-C will not end it and what will, before it tries.
func TestBusyJobThatIgnoresInterruptsIsNamed(t *testing.T) {
	onService(t, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		ctx := testCtx(t)
		for _, c := range []struct {
			cmd     string
			ignores bool
		}{
			{"sleep 60", false},
			{"trap '' INT; sleep 60", true},
		} {
			res, err := s.Send(ctx, owner, r.SessionID, SendRequest{Data: c.cmd, QuietWindow: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			f := res.Foreground
			if f == nil || f.Name != "sleep" {
				t.Fatalf("%s: foreground %+v, want sleep", c.cmd, f)
			}
			if f.IgnoresInterrupt != c.ignores {
				t.Errorf("%s: IgnoresInterrupt %v, want %v", c.cmd, f.IgnoresInterrupt, c.ignores)
			}
			note := ForegroundNote(res.WaitReason, f)
			if got := strings.Contains(note, "ignores SIGINT"); got != c.ignores {
				t.Errorf("%s: note %q: names the ignored interrupt %v, want %v", c.cmd, note, got, c.ignores)
			}
			if _, err := s.Signal(ctx, owner, r.SessionID, "SIGTERM"); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestForegroundNameIsPrintable: a program names itself (its comm) with
// a newline and an escape; the foreground it is described as carries
// neither, so its name cannot forge a line of a result.
func TestForegroundNameIsPrintable(t *testing.T) {
	onService(t, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		ctx := testCtx(t)
		res, err := s.Send(ctx, owner, r.SessionID, SendRequest{
			Data:        `python3 -c "open('/proc/self/comm','w').write('x]\n[ok\x1b[2J'); import time; time.sleep(60)"`,
			QuietWindow: 500 * time.Millisecond,
		})
		if err != nil {
			t.Fatal(err)
		}
		f := res.Foreground
		if f == nil || !strings.HasPrefix(f.Name, "x]") {
			t.Fatalf("foreground %+v, want the program that renamed itself", f)
		}
		if strings.ContainsAny(f.Name, "\n\x1b") {
			t.Fatalf("name %q carries a control character", f.Name)
		}
	})
}

// TestSilentSendReportsProgress: a send that waits through a silent
// command (a deadline without a quiet window) still reports progress, with
// no new output, about once a second, so that a client that keeps waiting
// while a call reports progress does not give up on it.
func TestSilentSendReportsProgress(t *testing.T) {
	onService(t, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		var beats int
		res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{
			Data: `sleep 3.5; echo "do""ne"`, Timeout: time.Minute,
			Progress: func(d core.OutputDelta) {
				if d.Text == "" {
					beats++
				}
			},
		})
		if err != nil || res.WaitReason != core.WaitPrompt || !strings.Contains(res.Delta, "done") {
			t.Fatalf("send: %s %q %v", res.WaitReason, res.Delta, err)
		}
		if beats < 2 {
			t.Fatalf("%d progress reports without output in 3.5 s of silence, want at least 2", beats)
		}
	})
}
