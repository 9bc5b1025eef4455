package screen

import (
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// A terminal multiplexer started in a session (tmux) puts its own shell
// on the alternate screen, and tmux passes no prompt marker through: a
// command typed there settles on the inner shell's prompt, read from the
// screen's cursor row (remote_prompt), not after the quiet window, and a
// question asked there never settles so.
func TestACommandInsideTmuxSettlesOnItsPrompt(t *testing.T) {
	need(t, "tmux", "tmux")
	e := newEnvOn(t, Options{}, core.Options{})
	ctx := ctxT(t)
	s, err := e.svc.Spawn(ctx, e.owner, core.SpawnRequest{Type: localpty.TypeShell,
		Env: []string{"TMUX_TMPDIR=" + t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	send := func(data string, quiet time.Duration) core.SendResult {
		t.Helper()
		op, err := e.svc.Send(ctx, e.owner, s.ID, core.SendRequest{Data: data, QuietWindow: quiet})
		if err != nil {
			t.Fatal(err)
		}
		r, err := op.Wait(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := send("tmux -f /dev/null new-session", 0); r.WaitReason != core.WaitRemotePrompt {
		t.Fatalf("tmux's first prompt settled %s (foreground %+v)", r.WaitReason, r.Foreground)
	}
	for i := range 3 {
		if r := send("echo inside-$((40+2))", 0); r.WaitReason != core.WaitRemotePrompt {
			t.Fatalf("command %d inside tmux settled %s (foreground %+v)", i, r.WaitReason, r.Foreground)
		}
		if !anyRowHas(e.snap(s.ID), "inside-42") {
			t.Fatalf("command %d: the screen lacks its output:\n%s", i, e.snap(s.ID).Text())
		}
	}
	if r := send(`read -p "Continue? [y/N] " yn`, time.Second); r.WaitReason == core.WaitRemotePrompt {
		t.Fatalf("a question inside tmux settled %s:\n%s", r.WaitReason, e.snap(s.ID).Text())
	}
	if r := send("n", 0); r.WaitReason != core.WaitRemotePrompt {
		t.Fatalf("the answer inside tmux settled %s", r.WaitReason)
	}
	if r := send("exit", 0); r.WaitReason != core.WaitPrompt {
		t.Fatalf("back in the session's shell: %s %q", r.WaitReason, r.Delta)
	}
	if _, err := e.svc.Close(ctx, e.owner, s.ID, "test"); err != nil {
		t.Fatal(err)
	}
}

// TestAShellOnTheScreenTakesPtySend: a send that settled on a shell's
// prompt inside a full-screen program (tmux) says to send the next
// command with pty_send; a send that left any other full-screen program
// says to type into it with pty_keys.
func TestAShellOnTheScreenTakesPtySend(t *testing.T) {
	snap := Snapshot{Rows: []string{"root@box:~# "}, Size: core.Size{Rows: 1, Cols: 20}}
	for reason, want := range map[core.WaitReason]string{
		core.WaitRemotePrompt: "send the shell there its next command with pty_send]",
		core.WaitInferredIdle: "type into it with pty_keys]",
	} {
		got := tools.Headline(renderFullScreenSend("["+string(reason)+"]\n", snap))
		if !strings.HasSuffix(got, want) {
			t.Errorf("%s: headline %q, want it to end %q", reason, got, want)
		}
	}
}
