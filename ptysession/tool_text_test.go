package ptysession

import (
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// TestSendSummaryNamesTheBusyProgram: the summary line of a send that
// settled while a busy program held the terminal names it, and says where
// the input it has not read went.
func TestSendSummaryNamesTheBusyProgram(t *testing.T) {
	for _, c := range []struct {
		f    *core.ForegroundProgram
		want []string
		not  []string
	}{
		{nil, []string{"[inferred_idle]"}, []string{"holds the terminal"}},
		{&core.ForegroundProgram{Group: 41, Name: "python3", UnreadInput: 11}, []string{"python3 (pgid 41) holds the terminal and is busy", "11 bytes you typed wait unread", "an interrupt discards them"}, nil},
		{&core.ForegroundProgram{Group: 7, Name: "watch", UnreadInput: 1}, []string{"watch (pgid 7) holds the terminal and is busy; 1 byte you typed waits unread", "an interrupt discards it)"}, []string{"bytes"}},
		{&core.ForegroundProgram{Group: 41, Reading: true, UnreadInput: -1}, []string{"a program (pgid 41) holds the terminal and reads it"}, []string{"unread"}},
	} {
		got := RenderSend(SendResult{SendResult: core.SendResult{WaitReason: core.WaitInferredIdle, Status: core.Status{Kind: core.StatusRunning}, Foreground: c.f}})
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("summary %q lacks %q", got, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(got, w) {
				t.Errorf("summary %q has %q", got, w)
			}
		}
	}
}

// TestRemotePromptSummarySaysTheShellWaits: a send that settled on the
// prompt of a shell behind a remote login or a multiplexer names the
// client holding the terminal and says the shell there waits for its
// next command, not that the client is busy.
func TestRemotePromptSummarySaysTheShellWaits(t *testing.T) {
	got := RenderSend(SendResult{SendResult: core.SendResult{WaitReason: core.WaitRemotePrompt, Status: core.Status{Kind: core.StatusRunning},
		Foreground: &core.ForegroundProgram{Group: 9, Name: "ssh"}}})
	want := "[remote_prompt; ssh (pgid 9) holds the terminal; the program it shows waits at its prompt]"
	if !strings.HasPrefix(got, want) {
		t.Errorf("summary %q, want it to begin %q", got, want)
	}
}

// TestSendSummarySaysTheCommandIsIncomplete: a send that left the shell
// at its continuation prompt says that the next send joins the command
// and how to leave it; other sends say nothing of it.
func TestSendSummarySaysTheCommandIsIncomplete(t *testing.T) {
	running := core.Status{Kind: core.StatusRunning}
	got := RenderSend(SendResult{SendResult: core.SendResult{WaitReason: core.WaitStdinRead, Status: running, Continuation: true}})
	for _, w := range []string{"[stdin_read; the command is incomplete", "becomes part of it", "pty_signal SIGINT", "abandon it]"} {
		if !strings.Contains(got, w) {
			t.Errorf("summary %q lacks %q", got, w)
		}
	}
	got = RenderSend(SendResult{SendResult: core.SendResult{WaitReason: core.WaitStdinRead, Status: running, Continuation: true, Delta: "def f(x):\n...     return x*2\n... "}})
	for _, w := range []string{"[stdin_read; the statement is incomplete", `"... " prompt`, `empty line (send "")`, "Node one with its closing bracket", "pty_signal SIGINT"} {
		if !strings.Contains(got, w) {
			t.Errorf("REPL summary %q lacks %q", got, w)
		}
	}
	got = RenderSend(SendResult{SendResult: core.SendResult{WaitReason: core.WaitStdinRead, Status: running, Continuation: true, Delta: "select 1\n   ...> "}})
	for _, w := range []string{"[stdin_read; the statement is incomplete", `sqlite3 ends it at ";" (send ";"`, "jshell once its brackets"} {
		if !strings.Contains(got, w) {
			t.Errorf("SQL summary %q lacks %q", got, w)
		}
	}
	if strings.Contains(got, "SIGINT") {
		t.Errorf("SQL summary %q offers an interrupt, which sqlite3 ignores there", got)
	}
	for _, delta := range []string{"select * from t\npostgres-# ", "select 'a\n    '> "} {
		got = RenderSend(SendResult{SendResult: core.SendResult{WaitReason: core.WaitStdinRead, Status: running, Continuation: true, Delta: delta}})
		for _, w := range []string{"[stdin_read; the SQL statement is incomplete", `send ";" to end it`, `psql's \r`, `mysql's \c`} {
			if !strings.Contains(got, w) {
				t.Errorf("SQL client summary %q lacks %q", got, w)
			}
		}
	}
	if got := RenderSend(SendResult{SendResult: core.SendResult{WaitReason: core.WaitStdinRead, Status: running}}); strings.Contains(got, "incomplete") {
		t.Errorf("summary %q speaks of an incomplete command", got)
	}
}

// TestSummariesNameTheStatusOnlyWhenNotRunning: a running session is what
// every call expects, so the summaries of a send and an open name the
// session's status only once it has ended.
func TestSummariesNameTheStatusOnlyWhenNotRunning(t *testing.T) {
	running := core.Status{Kind: core.StatusRunning}
	exited := core.Status{Kind: core.StatusExited, ExitCode: 3}
	for _, c := range []struct {
		got, want string
	}{
		{RenderSend(SendResult{SendResult: core.SendResult{WaitReason: core.WaitPrompt, Status: running}}), "[prompt]\n"},
		{RenderSend(SendResult{SendResult: core.SendResult{WaitReason: core.WaitSessionExit, Status: exited}}), "[session_exit; session exited 3]\n"},
		{RenderOpen(OpenResult{SessionID: "pty_a", Status: running}), "[session pty_a opened]\n"},
		{RenderOpen(OpenResult{SessionID: "pty_a", Status: exited}), "[session pty_a opened; exited 3]\n"},
	} {
		if !strings.HasPrefix(c.got, c.want) {
			t.Errorf("summary %q, want it to start %q", c.got, c.want)
		}
	}
}

// A send that settled on a hidden read says so in its summary, for hosts
// that show the text, and says that the next send is typed into it: a
// model that sent its next command there typed it as the password.
func TestSendSummarySaysThePromptHidesInput(t *testing.T) {
	running := core.Status{Kind: core.StatusRunning}
	const want = "[stdin_read; the prompt hides input (a password): what you send next is typed into it, unseen]\n"
	got := RenderSend(SendResult{SendResult: core.SendResult{WaitReason: core.WaitStdinRead, Status: running, InputHidden: true, Delta: "sudo -k true\n[sudo] password for ada: "}})
	if !strings.HasPrefix(got, want) {
		t.Fatalf("send summary %q, want it to start %q", got, want)
	}
	line := int64(0)
	got = RenderWait(WaitResult{Fired: true, Target: "pty_a", Kind: WaitInput, WaitedMs: 5, InputHidden: true, Output: "Password: ", Line: "Password: ", LineNumber: &line}, nil)
	if !strings.Contains(got, "the prompt hides input (a password): what you send next is typed into it, unseen") {
		t.Fatalf("wait summary %q", got)
	}
}

// A signal typed as its key says so, naming the group where the backend
// can (an agent's session cannot say which group holds its terminal).
func TestRenderSignalTypedAsTheKey(t *testing.T) {
	for _, c := range []struct {
		r    core.SignalResult
		want string
	}{
		{core.SignalResult{Delivered: true, Raw: true, Method: "tty-char", TargetPGID: 42}, "[SIGINT typed as its key (Ctrl-C) to process group 42, which reads the terminal raw"},
		{core.SignalResult{Delivered: true, Raw: true, Method: "tty-char"}, "[SIGINT typed as its key (Ctrl-C): the program holding the terminal reads it raw"},
	} {
		if got := RenderSignal("pty_a", SignalResult{Signal: core.SIGINT, SignalResult: c.r}); !strings.HasPrefix(got, c.want) {
			t.Errorf("%+v: %q, want it to start %q", c.r, got, c.want)
		}
	}
}

// A remote login's client reads the terminal whatever its far side does:
// after a send that timed out, the note says the far side has not come
// back to a prompt, not that the client reads, which reads as a program
// waiting for input.
func TestForegroundNoteOfARemoteLoginSaysTheFarSideIsBusy(t *testing.T) {
	got := ForegroundNote(core.WaitTimeout, &core.ForegroundProgram{Group: 7, Name: "ssh", Reading: true})
	if want := "ssh (pgid 7) holds the terminal; the program it shows has not come back to a prompt"; !strings.HasPrefix(got, want) {
		t.Errorf("ssh: %q, want it to start %q", got, want)
	}
	if got := ForegroundNote(core.WaitTimeout, &core.ForegroundProgram{Group: 7, Name: "python3", Reading: true}); got != "python3 (pgid 7) holds the terminal and reads it" {
		t.Errorf("python3: %q", got)
	}
}

// TestExitCodeNoteNamesTheSignal: a shell reports a command killed by a
// signal as 128 plus its number; the summary names the signal, which a
// model otherwise has to work out from the number.
func TestExitCodeNoteNamesTheSignal(t *testing.T) {
	for code, want := range map[int]string{
		0:   "command exit code 0",
		2:   "command exit code 2",
		130: "command exit code 130 (SIGINT)",
		137: "command exit code 137 (SIGKILL)",
		139: "command exit code 139 (SIGSEGV)",
		141: "command exit code 141 (SIGPIPE)",
		143: "command exit code 143 (SIGTERM)",
		138: "command exit code 138",
		255: "command exit code 255",
	} {
		if got := ExitCodeNote(code); got != want {
			t.Errorf("ExitCodeNote(%d) = %q, want %q", code, got, want)
		}
	}
	code := 139
	for name, text := range map[string]string{
		"send": RenderSend(SendResult{SendResult: core.SendResult{WaitReason: core.WaitPrompt, ExitCode: &code}}),
		"open": RenderOpen(OpenResult{SessionID: "pty_x", ExitCode: &code}),
	} {
		if !strings.Contains(text, "; command exit code 139 (SIGSEGV)") {
			t.Errorf("%s summary %q does not name the signal", name, text)
		}
	}
}
