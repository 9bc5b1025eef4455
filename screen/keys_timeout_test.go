package screen

import (
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
	id := e.sh(core.Size{Rows: 10, Cols: 40}, `printf '\e[?1049h'; i=0; while :; do i=$((i+1)); printf '\e[H\e[2Jtick %d' $i; sleep 0.05; done`)
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
}
