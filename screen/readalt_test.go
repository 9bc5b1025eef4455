package screen

import (
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// TestModeFollowsTheReadLoopNotTheDrain: whether a full-screen program
// holds the terminal (what pty_send asks after every send) is known from
// the session's read loop as output passes it, also while the drain that
// feeds the screen's buffer is held up: a send that settled has its
// screen switches counted.
func TestModeFollowsTheReadLoopNotTheDrain(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.sh(core.Size{Rows: 10, Cols: 40}, `printf 'A\e[?1049h'; read x; printf '\e[?1049lB'; read y`)
	e.waitFor(id, "the alternate screen", func(s Snapshot) bool { return s.AltScreen })
	_, st, err := e.m.lookup("screen", e.owner, id)
	if err != nil {
		t.Fatal(err)
	}
	stalled := func(what string, want bool) {
		t.Helper()
		// The drain cannot ingest, nor the screen's state be read, while
		// st.mu is held.
		st.mu.Lock()
		got := make(chan screenMode, 1)
		go func() { got <- e.m.mode(ctxT(t), e.owner, id) }()
		var md screenMode
		select {
		case md = <-got:
		case <-time.After(waitLimit):
			st.mu.Unlock()
			<-got
			t.Fatalf("%s: mode waited for the screen's drain", what)
		}
		st.mu.Unlock()
		if !md.known || md.alt != want {
			t.Fatalf("%s: mode = %+v, want known, alt %v", what, md, want)
		}
	}
	stalled("on the alternate screen", true)
	op, err := e.svc.Send(ctxT(t), e.owner, id, core.SendRequest{Data: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := op.Wait(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	stalled("after the program left it", false)
}
