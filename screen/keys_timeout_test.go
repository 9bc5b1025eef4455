package screen

import (
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// TestKeysToAFullScreenProgramThatNeverReads: keys typed into a
// full-screen program that redraws and never reads them (watch) return
// with the screen at Options.FullScreenKeysTimeout, not at the service's
// send deadline (here longer than the test may run), and say the keys
// wait unread.
func TestKeysToAFullScreenProgramThatNeverReads(t *testing.T) {
	e := newEnvOn(t, Options{FullScreenKeysTimeout: 300 * time.Millisecond},
		core.Options{QuietWindow: 500 * time.Millisecond, SendTimeout: 10 * waitLimit})
	// bash with job control runs the drawing loop as a job of its own, as
	// a shell runs watch: the job, not the session's top-level process,
	// holds the terminal.
	id := e.spawn(core.Size{Rows: 10, Cols: 40}, "bash", "-c", `set -m; bash -c 'stty -icanon -echo; printf "\e[?1049h"; i=0; while :; do i=$((i+1)); printf "\e[H\e[2Jtick %d" $i; sleep 0.05; done'; echo ended`)
	e.waitFor(id, "the drawing", func(s Snapshot) bool { return s.AltScreen && len(s.Rows) > 0 && len(s.Rows[0]) > 5 })
	r, err := e.m.SendKeys(ctxT(t), e.owner, id, KeysRequest{Keys: []string{"q"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Send.WaitReason != core.WaitTimeout || !r.Screen.AltScreen {
		t.Fatalf("keys settled %s (alternate screen %v), want a timeout with the screen", r.Send.WaitReason, r.Screen.AltScreen)
	}
	if f := r.Send.Foreground; f != nil && f.UnreadInput < 1 {
		t.Fatalf("foreground %+v: the key waits unread", f)
	}

	// The tool's summary says who holds the terminal and that the key
	// waits unread, as pty_send's does.
	res, err := call(t, facadeDispatcher(t, e), e.owner, ToolKeys, map[string]any{"id": string(id), "keys": []string{"q"}})
	if err != nil {
		t.Fatal(err)
	}
	if kr := res.Structured.(KeysToolResult); kr.WaitReason != core.WaitTimeout || kr.Foreground == nil ||
		!strings.HasPrefix(res.Text, "[timeout; ") || !strings.Contains(res.Text, "holds the terminal and is busy; 2 bytes you typed wait unread") {
		t.Fatalf("keys to a program that never reads them:\n%s", res.Text)
	}
}
