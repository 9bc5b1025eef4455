package localpty

import (
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// TestShellTypeDefusesInteractiveTraps: the "shell" type's bash takes "!"
// literally, neutralises pagers, and reports the exit status of every
// line, a rejected one included.
func TestShellTypeDefusesInteractiveTraps(t *testing.T) {
	svc, owner, info := shellService(t, core.SpawnRequest{})
	res := sendWait(t, svc, owner, info.ID, `echo "a!found" | sed '/!found/d'; echo "left:$PAGER:$GIT_PAGER:$SYSTEMD_PAGER:$MANPAGER:$TERM"`)
	wantPrompt(t, "bang", res, "left:cat:cat:cat:cat:xterm-256color")
	if strings.Contains(res.Delta, "event not found") || strings.Contains(res.Delta, "a!found\n") {
		t.Fatalf("history expansion is on: %q", res.Delta)
	}
	res = sendWait(t, svc, owner, info.ID, "echo !!")
	wantPrompt(t, "literal !!", res, "\n!!\n")
	res = sendWait(t, svc, owner, info.ID, "if then fi")
	wantPrompt(t, "syntax error", res, "syntax error")
	if res.ExitCode == nil || *res.ExitCode != 2 {
		t.Fatalf("a rejected line: exit code %v, want 2", res.ExitCode)
	}
}

// The prompt is the session's shell's own: the programs it starts get no
// PS1 or PS2. Exported, they gave sh (dash) a prompt of bash's escapes
// printed as they are ("\[\e]133;A\a\]\w$ \[\e]133;B\a\]"). The prompt
// command stays exported, for a bash started in the session to mark its
// own prompt (TestNestedShellsReportExitCodes); sh ignores it.
func TestShellTypeKeepsItsPromptToItself(t *testing.T) {
	svc, owner, info := shellService(t, core.SpawnRequest{})
	res := sendWait(t, svc, owner, info.ID, `env | grep -cE '^(PS1|PS2)='`)
	wantPrompt(t, "env", res, "\n0\n")
	need(t, "sh")
	res = sendWait(t, svc, owner, info.ID, "sh -i")
	if res.WaitReason != core.WaitStdinRead || strings.Contains(res.Delta, `\[`) || strings.Contains(res.Delta, "133;") {
		t.Fatalf("sh -i: settled as %s with %q, want its own prompt", res.WaitReason, res.Delta)
	}
	res = sendWait(t, svc, owner, info.ID, "exit")
	wantPrompt(t, "exit", res, "")
}

// TestShellSetupInstallsIntoARunningBash: ShellSetup, typed into a bash
// started without any of it (as a remote login shell is), gives the same
// shell: marker, literal "!", pagers.
func TestShellSetupInstallsIntoARunningBash(t *testing.T) {
	need(t, "bash")
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{
		Command: []string{"bash", "--noprofile", "--norc", "-i"},
		Env:     []string{"PS1=$ ", "PAGER=less"},
	})
	tm.waitFor("$ ")
	tm.send(ShellSetup() + "\r")
	tm.waitFor("\x1b]133;B\a")
	tm.send(`echo "x!y" "$PAGER" "$MANPAGER"` + "\r")
	out := string(tm.waitForN("\x1b]133;B\a", 2))
	if !strings.Contains(out, "x!y cat cat\r\n") || !strings.Contains(out, "\x1b]133;D;0;line=2;inq=0;pid=") {
		t.Fatalf("output %q", out)
	}
}
