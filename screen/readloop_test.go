package screen

import (
	"strings"
	"testing"
)

// TestBusyEmulatorDoesNotHoldTheReadLoop holds the emulator's lock (as a
// long catch-up does) while the session prints four times the ring: the
// session's read loop takes every byte in and sees the exit all the same,
// since it only ever waits for a copy into the ring. The screen then
// shows the end of the output, approximate (the ring dropped the rest).
func TestBusyEmulatorDoesNotHoldTheReadLoop(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.sh(size24x80, `read x; yes "$(printf '%079d' 0)" | head -c 4194304; echo; echo the-end`)
	e.m.mu.Lock()
	st := e.m.states[id]
	e.m.mu.Unlock()
	if st == nil {
		t.Fatal("the manager does not watch the session")
	}
	st.mu.Lock()
	locked := true
	defer func() {
		if locked {
			st.mu.Unlock()
		}
	}()
	if _, err := e.svc.Write(ctxT(t), e.owner, id, []byte("go\n")); err != nil {
		t.Fatal(err)
	}
	e.waitExit(id) // the read loop drained the output while the emulator was held
	st.mu.Unlock()
	locked = false
	s := e.snap(id)
	if !anyRowHas(s, "the-end") || !s.Approximate {
		t.Fatalf("approximate %v, screen:\n%s", s.Approximate, strings.Join(s.Rows, "\n"))
	}
}
