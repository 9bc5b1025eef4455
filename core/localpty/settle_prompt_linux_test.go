package localpty

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// Which prompt settles a send on a real bash: never one the shell printed
// before it read the send, and with several lines, the one after the last.

// shellService returns a service with the shell type and a fresh shell.
func shellService(t *testing.T, req core.SpawnRequest) (*core.Service, *core.Owner, core.SpawnResult) {
	t.Helper()
	return shellServiceOn(t, NewShell(ShellOptions{Options: shortOpts(false)}), req)
}

// shellServiceOn returns a service with b (the shell type, or a test's
// wrapper of it) and a fresh shell spawned on it.
func shellServiceOn(t *testing.T, b core.Backend, req core.SpawnRequest) (*core.Service, *core.Owner, core.SpawnResult) {
	t.Helper()
	need(t, "bash")
	svc := serviceOf(t, b)
	owner := core.NewOwner("shell")
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	req.Type = TypeShell
	info, err := svc.Spawn(ctx, owner, req)
	mustf(t, err, "spawn")
	return svc, owner, info
}

// sendRequest sends req to session id and waits until the send settled.
func sendRequest(ctx context.Context, t *testing.T, svc *core.Service, owner *core.Owner, id core.SessionID, req core.SendRequest) core.SendResult {
	t.Helper()
	op, err := svc.Send(ctx, owner, id, req)
	mustf(t, err, "send %q", req.Data)
	res, err := op.Wait(ctx)
	mustf(t, err, "wait %q", req.Data)
	return res
}

// sendWait sends data (with Enter) and waits for the result. Every caller
// wants the prompt or a read, so silence is a failure, and the quiet
// window is its bound: the command's own event settles the send however
// long a loaded machine takes to start it (python3 behind a pyenv shim,
// several bash processes, took over 5 s beside busy loops).
func sendWait(t *testing.T, svc *core.Service, owner *core.Owner, id core.SessionID, data string) core.SendResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
	defer cancel()
	return sendRequest(ctx, t, svc, owner, id, core.SendRequest{Data: data, QuietWindow: waitLimit, Timeout: 2 * waitLimit})
}

// serviceOf returns a quiet service with backend b registered, shut down
// (and checked) when t ends.
func serviceOf(t *testing.T, b core.Backend) *core.Service {
	t.Helper()
	svc := core.New(core.Options{Logger: slog.New(slog.DiscardHandler)})
	_, err := svc.Register(b)
	mustf(t, err, "register")
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		if err := svc.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return svc
}

// wantPrompt fails unless res settled on the prompt holding every want.
func wantPrompt(t *testing.T, what string, res core.SendResult, want ...string) {
	t.Helper()
	if res.WaitReason != core.WaitPrompt {
		t.Fatalf("%s: settled as %s after %v with %q, want prompt", what, res.WaitReason, res.Elapsed, res.Delta)
	}
	for _, w := range want {
		if !strings.Contains(res.Delta, w) {
			t.Fatalf("%s: settled on a prompt after %v without %q: output %q", what, res.Elapsed, w, res.Delta)
		}
	}
}

// TestSendAfterWriteSkipsThePromptOfTheWrite: a line typed by Write and a
// send straight after it. The prompt after the written line is printed
// before the shell reads the send; it must not settle the send.
func TestSendAfterWriteSkipsThePromptOfTheWrite(t *testing.T) {
	svc, owner, info := shellService(t, core.SpawnRequest{})
	for i := range 8 {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		_, err := svc.Write(ctx, owner, info.ID, []byte("true\r"))
		cancel()
		mustf(t, err, "write")
		res := sendWait(t, svc, owner, info.ID, fmt.Sprintf("echo fresh-%d-$((6*7))", i))
		wantPrompt(t, fmt.Sprintf("try %d", i), res, fmt.Sprintf("fresh-%d-42", i))
	}
}

// TestSendAfterSigintSkipsTheInterruptPrompt: Ctrl-C at the prompt makes
// bash print a new prompt; a send straight after the signal must wait for
// the prompt after its own command, and settle on it.
func TestSendAfterSigintSkipsTheInterruptPrompt(t *testing.T) {
	svc, owner, info := shellService(t, core.SpawnRequest{})
	for i := range 8 {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		_, err := svc.Signal(ctx, owner, info.ID, core.SignalRequest{Signal: core.SIGINT})
		cancel()
		mustf(t, err, "signal")
		res := sendWait(t, svc, owner, info.ID, fmt.Sprintf("echo after-int-%d-$((6*7))", i))
		// Readline may take the interrupt after it read the first
		// bytes of the line (then it runs the rest of the line, "cho
		// ..."), whose prompt settles the send. Either way the command
		// ran first.
		wantPrompt(t, fmt.Sprintf("try %d", i), res)
		if want := fmt.Sprintf("after-int-%d-42", i); !strings.Contains(res.Delta, want) && !strings.Contains(res.Delta, "command not found") {
			t.Fatalf("try %d: settled as %s after %v before the command ran: %q", i, res.WaitReason, res.Elapsed, res.Delta)
		}
	}
	// Once the shell is back waiting for input after an interrupt at its
	// idle prompt, the next send still settles on its own prompt. The
	// interrupt prints a new prompt only when readline takes it; one that
	// lands while the shell is outside its line editor (still finishing the
	// prompt of the send before) prints none, so the test waits for the
	// shell to block reading again (kill makes it runnable at once, so the
	// probe cannot see the wait from before the signal), not for a prompt.
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	_, err := svc.Signal(ctx, owner, info.ID, core.SignalRequest{Signal: core.SIGINT})
	mustf(t, err, "signal")
	for {
		waiting, ok, err := svc.WaitingForInput(owner, info.ID)
		mustf(t, err, "probe")
		if !ok {
			t.Fatal("the local backend cannot tell when the shell waits for input")
		}
		if waiting {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the shell did not wait for input again after the interrupt")
		case <-time.After(2 * time.Millisecond): // nothing signals a blocked read
		}
	}
	res := sendWait(t, svc, owner, info.ID, "echo settled")
	wantPrompt(t, "after the interrupt prompt", res, "settled")
}

// TestSendBeforeFirstPrompt: a shell spawned without waiting for its first
// prompt; the first prompt must not settle a send written before it.
func TestSendBeforeFirstPrompt(t *testing.T) {
	for i := range 4 {
		svc, owner, info := shellService(t, core.SpawnRequest{NoInitialWait: true})
		res := sendWait(t, svc, owner, info.ID, fmt.Sprintf("echo first-%d-$((6*7))", i))
		wantPrompt(t, fmt.Sprintf("try %d", i), res, fmt.Sprintf("first-%d-42", i))
	}
}

// TestMultiLineSendSettlesAfterTheLastLine: a heredoc, then commands on
// further lines. The send settles at the prompt after the last line, with
// the last command's exit code and all of the output.
func TestMultiLineSendSettlesAfterTheLastLine(t *testing.T) {
	svc, owner, info := shellService(t, core.SpawnRequest{})
	dir := t.TempDir()
	data := "cat > " + dir + "/note.txt <<'EOF'\nfirst line\nsecond line\nEOF\n" +
		"wc -l < " + dir + "/note.txt\n" +
		"sleep 0.3; echo after-sleep\n" +
		"sh -c 'exit 3'"
	res := sendWait(t, svc, owner, info.ID, data)
	wantPrompt(t, "multi-line", res, "after-sleep")
	if !strings.Contains(res.Delta, "2\r\n") && !strings.Contains(res.Delta, "2\n") {
		t.Fatalf("no line count in %q", res.Delta)
	}
	if res.ExitCode == nil || *res.ExitCode != 3 {
		t.Fatalf("exit code %v, want the last command's 3; output %q", res.ExitCode, res.Delta)
	}
	// The next send is on its own again.
	res = sendWait(t, svc, owner, info.ID, "echo next")
	wantPrompt(t, "next", res, "next")
	if strings.Contains(res.Delta, "after-sleep") {
		t.Fatalf("the next send repeated the previous output: %q", res.Delta)
	}
}

// TestPromptAfterProgramsAndEmptyLines: the accounting does not cost the
// fast path: an empty line, a syntax error, a REPL that returns to the
// shell, and an interrupted command all settle on their prompt, with the
// exit status.
func TestPromptAfterProgramsAndEmptyLines(t *testing.T) {
	need(t, "python3")
	svc, owner, info := shellService(t, core.SpawnRequest{})
	res := sendWait(t, svc, owner, info.ID, "")
	wantPrompt(t, "empty line", res)
	res = sendWait(t, svc, owner, info.ID, "echo (")
	wantPrompt(t, "syntax error", res, "syntax error")
	if res.ExitCode == nil || *res.ExitCode != 2 {
		t.Fatalf("syntax error: exit code %v, want 2", res.ExitCode)
	}
	res = sendWait(t, svc, owner, info.ID, "python3 -q")
	if res.WaitReason != core.WaitStdinRead {
		t.Fatalf("python3: %s %q", res.WaitReason, res.Delta)
	}
	res = sendWait(t, svc, owner, info.ID, "import sys; sys.exit(4)")
	wantPrompt(t, "leaving python", res)
	if res.ExitCode == nil || *res.ExitCode != 4 {
		t.Fatalf("leaving python: exit code %v, want 4", res.ExitCode)
	}

	// A command that outlives its send, then Ctrl-C, then a send.
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	op, err := svc.Send(ctx, owner, info.ID, core.SendRequest{Data: "sleep 30", Timeout: 300 * time.Millisecond})
	mustf(t, err, "send sleep")
	r, err := op.Wait(ctx)
	mustf(t, err, "wait sleep")
	if r.WaitReason != core.WaitTimeout {
		t.Fatalf("sleep: %s", r.WaitReason)
	}
	_, err = svc.Signal(ctx, owner, info.ID, core.SignalRequest{Signal: core.SIGINT})
	mustf(t, err, "signal")
	res = sendWait(t, svc, owner, info.ID, "echo after-sleep-$((6*7))")
	wantPrompt(t, "after interrupting sleep", res, "after-sleep-42")
	res = sendWait(t, svc, owner, info.ID, "true")
	wantPrompt(t, "true", res)
}

// TestPromptOnTheLineOfAHiddenAnswer: a prompt the shell prints on the
// line it was on, because the send's input was not echoed and the program
// printed no newline (read -s -p, a password prompt), still ends the
// command: the send settles on it with the exit status, not as a read.
func TestPromptOnTheLineOfAHiddenAnswer(t *testing.T) {
	svc, owner, info := shellService(t, core.SpawnRequest{})
	res := sendWait(t, svc, owner, info.ID, "read -s -p 'Password: ' pw")
	if res.WaitReason != core.WaitStdinRead || !strings.HasSuffix(res.Delta, "Password: ") {
		t.Fatalf("read -s -p: %s %q, want stdin_read after the prompt", res.WaitReason, res.Delta)
	}
	res = sendWait(t, svc, owner, info.ID, "hunter2")
	wantPrompt(t, "the hidden answer", res)
	if res.ExitCode == nil || *res.ExitCode != 0 {
		t.Fatalf("the hidden answer: exit code %v, want 0", res.ExitCode)
	}
	if strings.Contains(res.Delta, "hunter2") {
		t.Fatalf("the hidden answer was echoed: %q", res.Delta)
	}
	res = sendWait(t, svc, owner, info.ID, "printf no-newline; (exit 3)")
	wantPrompt(t, "output without a newline", res, "no-newline")
	if res.ExitCode == nil || *res.ExitCode != 3 {
		t.Fatalf("output without a newline: exit code %v, want 3", res.ExitCode)
	}
}

// A send whose caller gave a deadline and no quiet window waits through a
// silent command (a virtualenv being made, a link step) for the shell's
// prompt: a session that sees reads of its terminal and marks its prompts
// tells a finished command from silence, and the caller said how long it
// may take. With a quiet window of its own, silence settles the send as
// before.
func TestSendWithADeadlineWaitsThroughSilence(t *testing.T) {
	svc, owner, info := shellService(t, core.SpawnRequest{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
	defer cancel()
	silent := `sleep 3.5; echo "do""ne"`
	res := sendRequest(ctx, t, svc, owner, info.ID, core.SendRequest{Data: silent, Timeout: waitLimit})
	if res.WaitReason != core.WaitPrompt || !strings.Contains(res.Delta, "done") {
		t.Fatalf("with a deadline: %s %q, want the prompt after done", res.WaitReason, res.Delta)
	}
	res = sendRequest(ctx, t, svc, owner, info.ID, core.SendRequest{Data: silent, Timeout: waitLimit, QuietWindow: 300 * time.Millisecond})
	if res.WaitReason != core.WaitInferredIdle || strings.Contains(res.Delta, "done") {
		t.Fatalf("with a quiet window: %s %q, want inferred_idle before done", res.WaitReason, res.Delta)
	}
}

// TestPromptMarkedAfterTheCallerSetsPS1: a caller that sets its own PS1
// (a shorter prompt, to save bytes) keeps prompt settling and exit codes:
// the shell marks the new prompt again before it prints it.
func TestPromptMarkedAfterTheCallerSetsPS1(t *testing.T) {
	svc, owner, info := shellService(t, core.SpawnRequest{})
	res := sendWait(t, svc, owner, info.ID, `PS1='short$ '`)
	wantPrompt(t, "setting PS1", res, "short$ ")
	res = sendWait(t, svc, owner, info.ID, "sh -c 'exit 5'")
	wantPrompt(t, "after PS1", res, "short$ ")
	if res.ExitCode == nil || *res.ExitCode != 5 {
		t.Fatalf("exit code %v, want 5; output %q", res.ExitCode, res.Delta)
	}
	res = sendWait(t, svc, owner, info.ID, `PS2='more> '; echo "a`)
	if !res.Continuation {
		t.Fatalf("an open quote after PS2 was set: %s %q, want a continuation", res.WaitReason, res.Delta)
	}
	res = sendWait(t, svc, owner, info.ID, `b"`)
	wantPrompt(t, "closing the quote", res, "short$ ")
}

// TestNestedShellsReportExitCodes: a bash started in the session (a
// nested shell, and the one `exec bash` puts in the shell's place) marks
// its prompts too, so its commands settle on their prompts with their
// exit codes (the send that starts it settles on its read: a new shell's
// first prompt counts no line); its exit settles on the session's shell's
// prompt, whose count is lower, with its status.
func TestNestedShellsReportExitCodes(t *testing.T) {
	svc, owner, info := shellService(t, core.SpawnRequest{})
	wantExit := func(what string, res core.SendResult, code int, holds string) {
		t.Helper()
		wantPrompt(t, what, res, holds)
		if res.ExitCode == nil || *res.ExitCode != code {
			t.Fatalf("%s: exit code %v, want %d", what, res.ExitCode, code)
		}
	}
	sendWait(t, svc, owner, info.ID, "bash")
	for i := range 3 {
		wantExit(fmt.Sprintf("nested, try %d", i), sendWait(t, svc, owner, info.ID, fmt.Sprintf("echo nested-%d; (exit %d)", i, 3+i)), 3+i, fmt.Sprintf("nested-%d", i))
	}
	// The session's shell prints the prompt after the nested one exits;
	// its line count is its own, below the nested shell's, and the
	// marker names another shell: the prompt answers the exit, with the
	// nested shell's exit status.
	wantExit("the nested shell's exit", sendWait(t, svc, owner, info.ID, "exit 7"), 7, "exit 7")
	// A send that starts a nested shell and feeds it a line settles on
	// the prompt after that line, the nested shell's second.
	wantExit("a nested shell and its first line", sendWait(t, svc, owner, info.ID, "bash\necho inner-a; (exit 6)"), 6, "inner-a")
	wantExit("its exit", sendWait(t, svc, owner, info.ID, "exit 2"), 2, "exit 2")
	wantExit("the session's shell again", sendWait(t, svc, owner, info.ID, "echo outer; false"), 1, "outer")
	sendWait(t, svc, owner, info.ID, "exec bash")
	for i := range 3 {
		wantExit(fmt.Sprintf("after exec, try %d", i), sendWait(t, svc, owner, info.ID, fmt.Sprintf("echo execd-%d; (exit %d)", i, 4+i)), 4+i, fmt.Sprintf("execd-%d", i))
	}
}
