package testharness

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptyseam/ptyseam/core"
)

// testInputWatcher: a backend session that implements core.InputWatcher
// answers the service's question truthfully. A REPL at its prompt waits
// for input once everything it printed was taken in (and not before: output
// Read returned that the caller has not taken in is in flight); after a
// line it read and answered, the wait it is back in is new since the
// earlier baseline. A backend that cannot tell (no InputWatcher, or an
// error on this platform) is skipped: the service settles its sends on
// other evidence.
func (bs *backendSuite) testInputWatcher(t *testing.T) {
	s, c := bs.start(t, suiteSize, "echo-repl")
	iw, ok := s.(core.InputWatcher)
	if !ok {
		t.Skip("the backend's sessions are no core.InputWatcher: it cannot tell when its program waits for input")
	}
	mustSee(t, c, "> ")
	if _, err := iw.InputWait(core.InputBaseline{}, 0); err != nil {
		t.Skipf("the backend cannot tell here: %v", err)
	}
	first := awaitInput(t, iw, c, core.InputBaseline{})
	w, err := iw.InputWait(core.InputBaseline{}, 0)
	require.NoError(t, err)
	require.False(t, w.Waiting, "InputWait with nothing taken in reports Waiting, though the prompt was read from the terminal")

	write(t, s, "hello watcher\r")
	mustSee(t, c, "hello watcher\r\nhello watcher\r\n> ")
	again := awaitInput(t, iw, c, first.Now)
	require.True(t, again.New, "the wait after a line was read and answered is not new since the baseline before it: %+v, base %+v", again, first.Now)
}

// awaitInput asks until the program waits for input with everything it
// printed taken in, and returns that answer.
func awaitInput(t *testing.T, iw core.InputWatcher, c *collector, base core.InputBaseline) core.InputWait {
	t.Helper()
	deadline := time.Now().Add(suiteTimeout)
	for {
		w, err := iw.InputWait(base, uint64(len(c.snapshot())))
		require.NoError(t, err, "InputWait")
		if w.Waiting && w.Reading {
			return w
		}
		if time.Now().After(deadline) {
			t.Fatalf("the REPL at its prompt never waited for input: %+v", w)
		}
		// Nothing signals that a program blocked in a read: ask again.
		time.Sleep(2 * time.Millisecond)
	}
}
