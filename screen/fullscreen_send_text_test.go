package screen

import (
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// TestAShellOnTheScreenTakesPtySend: a send that settled on a shell's
// prompt inside a full-screen program (tmux) says to send the next
// command with pty_send; a send that left any other full-screen program
// says to type into it with pty_keys, unless its prompt hides input or
// the summary names the next call.
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
	// A password dialog (pinentry) takes no keys from the model, and a
	// summary that names the next call keeps it last.
	for _, head := range []string{"[stdin_read; the prompt hides input (a password)]", "[secret entered; it asks for a secret again: call pty_secret for it]"} {
		got := tools.Headline(renderFullScreenSend(head+"\n", snap))
		if strings.Contains(got, "pty_keys") || !strings.HasSuffix(got, "its screen follows]") {
			t.Errorf("headline %q after %q: want no pty_keys, ending with the screen", got, head)
		}
	}
}
