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
