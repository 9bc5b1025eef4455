package testharness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptyseam/ptyseam/core"
)

// testRoundTrip: a prompt without a newline arrives, a line written
// reaches the program and its answer comes back, and "exit" ends it with
// code 0 and io.EOF.
func (bs *backendSuite) testRoundTrip(t *testing.T) {
	s, c := bs.start(t, suiteSize, "echo-repl")
	assert.Equal(t, "> ", string(mustSee(t, c, "> ")), "first output: the bare prompt")
	assert.False(t, s.ExitStatus().Exited(), "ExitStatus of a running program = %v", s.ExitStatus())
	if bs.h.LocalProcesses {
		assert.True(t, ProcessAlive(s.PID()), "PID() = %d is a live process", s.PID())
	}
	write(t, s, "hello backend\r")
	// The terminal echoes the line, then the program answers it.
	mustSee(t, c, "hello backend\r\nhello backend\r\n> ")
	write(t, s, "exit\r")
	out := mustEOF(t, c)
	assert.True(t, bytes.HasSuffix(out, []byte("bye\r\n")), "output ends %q, want the REPL's goodbye", tail(out, 80))
	assert.Equal(t, core.ExitedWithCode(0), mustExit(t, s), "status")
}

// testRawInput: bytes written reach a raw-mode program unchanged (here the
// replies to its terminal queries).
func (bs *backendSuite) testRawInput(t *testing.T) {
	s, c := bs.start(t, suiteSize, "term-queries", "30")
	mustSee(t, c, "\x1b[c\x1b[6n")
	write(t, s, "\x1b[?62;22c\x1b[12;5R")
	assert.Contains(t, string(mustEOF(t, c)), "DA1 ?62;22\r\nCPR 12 5\r\n", "output shows both replies")
	assert.Equal(t, core.ExitedWithCode(0), mustExit(t, s), "status")
}

// testOutputAtExit: everything a program prints right before it exits is
// read before io.EOF, byte for byte.
func (bs *backendSuite) testOutputAtExit(t *testing.T) {
	for _, n := range []int{1, 4095, 5 << 20} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			s, c := bs.start(t, suiteSize, "burst-exit", strconv.Itoa(n), "7")
			out := mustEOF(t, c)
			got, err := VerifyBurst(out)
			require.NoError(t, err, "%d bytes of output", len(out))
			assert.Equal(t, n, got, "bytes in the burst")
			assert.Equal(t, core.ExitedWithCode(7), mustExit(t, s), "status")
		})
	}
}

// testInvalidUTF8: Read passes bytes through; it does not decode them.
func (bs *backendSuite) testInvalidUTF8(t *testing.T) {
	want := []byte("ok \xff\xfe \xc3\x28 \xe2\x82 \xf0\x28\x8c\x28 \x00 \xed\xa0\x80 end")
	s, c := bs.start(t, suiteSize, "write-hex", fmt.Sprintf("%x", want))
	assert.Equal(t, want, mustEOF(t, c), "output")
	mustExit(t, s)
}

// testLargeOutput: 10 MB of lines arrive complete and in order.
func (bs *backendSuite) testLargeOutput(t *testing.T) {
	const lines = 180_000 // about 10.6 MB on the terminal
	s, c := bs.start(t, suiteSize, "flood", strconv.Itoa(lines))
	out := mustEOF(t, c)
	text := strings.TrimSuffix(string(bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n"))), "\n")
	got := strings.Split(text, "\n")
	want := make([]string, lines)
	for i := range want {
		want[i] = FloodLine(i)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%d lines (%d bytes) of the flood (-want +got):\n%s", len(got), len(out), tail(diff, 2000))
	}
	assert.Equal(t, core.ExitedWithCode(0), mustExit(t, s), "status")
}

// testWriteContext: a Write to a program that never reads returns once its
// context ends, with the context's error, and Close still works.
func (bs *backendSuite) testWriteContext(t *testing.T) {
	s, c := bs.start(t, suiteSize, "stall-input")
	mustSee(t, c, "stalled")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	data := bytes.Repeat([]byte("x"), 8<<20)
	go func() {
		n, err := s.Write(ctx, data)
		done <- result{n, err}
	}()
	select {
	case r := <-done:
		require.Error(t, r.err, "Write of %d bytes to a program that does not read", len(data))
		require.Less(t, r.n, len(data), "a short write")
		assert.True(t, errors.Is(r.err, context.DeadlineExceeded) || errors.Is(r.err, core.ErrCancelled),
			"Write error = %v, want one matching context.DeadlineExceeded or core.ErrCancelled", r.err)
	case <-time.After(suiteTimeout):
		t.Fatalf("Write did not return after its context ended")
	}
}

// testInputWatcher: a backend session whose core.Prober watches input
// (Facts.WatchesInput) answers the service's question truthfully. A REPL at its prompt waits
// for input once everything it printed was taken in (and not before: output
// Read returned that the caller has not taken in is in flight); after a
// line it read and answered, the wait it is back in is new since the
// earlier baseline. A backend that cannot tell (no input watching, or an
// error on this platform) is skipped: the service settles its sends on
// other evidence.
func (bs *backendSuite) testInputWatcher(t *testing.T) {
	s, c := bs.start(t, suiteSize, "echo-repl")
	iw, ok := inputWatcher(s)
	if !ok {
		t.Skip("the backend's sessions do not watch input (core.Facts.WatchesInput): it cannot tell when its program waits for input")
	}
	mustSee(t, c, "> ")
	if _, err := iw.InputWait(core.InputBaseline{}, 0); err != nil {
		t.Skipf("the backend cannot tell here: %v", err)
	}
	first := awaitInput(t, iw, c, core.InputBaseline{})
	// With nothing taken in, the prompt Read returned is in flight: the
	// program reads but does not wait. Asked until the program is seen
	// reading: on a loaded machine one of the REPL's runtime threads can
	// run for a moment, and an answer that is not Reading proves nothing.
	w := awaitAnswer(t, iw, core.InputBaseline{}, func() uint64 { return 0 },
		func(w core.InputWait) bool { return w.Reading }, "was never seen reading again")
	require.False(t, w.Waiting, "InputWait with nothing taken in reports Waiting, though the prompt was read from the terminal")

	write(t, s, "hello watcher\r")
	mustSee(t, c, "hello watcher\r\nhello watcher\r\n> ")
	again := awaitInput(t, iw, c, first.Now)
	require.True(t, again.New, "the wait after a line was read and answered is not new since the baseline before it: %+v, base %+v", again, first.Now)
}

// testInputWatcherNewReader: the wait after a line is new when the line
// was read on another thread than the wait before it, though the threads
// had the same number of wake-ups when blocked (the thread-repl child
// makes them coincide on purpose; a Go, JVM or Node REPL does it by
// chance). A backend that told waits apart by the wake-up count alone
// would never settle such a send on stdin_read. On a loaded machine the Go
// runtime can add a wake-up to one of the child's reads: the sub-test
// checks every line and needs at least one pair of waits whose counts
// coincided.
func (bs *backendSuite) testInputWatcherNewReader(t *testing.T) {
	s, c := bs.start(t, suiteSize, "thread-repl")
	iw, ok := inputWatcher(s)
	if !ok {
		t.Skip("the backend's sessions do not watch input (core.Facts.WatchesInput): it cannot tell when its program waits for input")
	}
	mustSee(t, c, "> ")
	if _, err := iw.InputWait(core.InputBaseline{}, 0); err != nil {
		t.Skipf("the backend cannot tell here: %v", err)
	}
	prev := awaitInput(t, iw, c, core.InputBaseline{})
	coincided := 0
	for _, line := range []string{"one", "two", "three", "four", "five"} {
		write(t, s, line+"\r")
		mustSee(t, c, line+"\r\n"+line+"\r\n> ")
		w := awaitInput(t, iw, c, prev.Now)
		if w.Now.Wakes == prev.Now.Wakes {
			coincided++
		}
		require.True(t, w.New, "the wait after %q, read on another thread, is not new since the baseline before it: %+v, base %+v", line, w, prev.Now)
		prev = w
	}
	require.Positive(t, coincided, "the premise: thread-repl blocks its reads with the same wake-ups; no two did (its output: %q)", c.snapshot())
}

// inputWatcher returns s's core.Prober when it answers the settle
// question, as the service finds it.
func inputWatcher(s core.BackendSession) (core.Prober, bool) {
	p := core.ProberOf(s)
	return p, p.Facts().WatchesInput
}

// awaitInput asks until the program waits for input with everything it
// printed taken in, and returns that answer.
func awaitInput(t *testing.T, iw core.Prober, c *collector, base core.InputBaseline) core.InputWait {
	t.Helper()
	return awaitAnswer(t, iw, base, func() uint64 { return uint64(len(c.snapshot())) },
		func(w core.InputWait) bool { return w.Waiting && w.Reading }, "never waited for input")
}

// awaitAnswer asks InputWait (with taken() bytes taken in) until its
// answer satisfies ok, and returns that answer; it fails the test with
// what after suiteTimeout.
func awaitAnswer(t *testing.T, iw core.Prober, base core.InputBaseline, taken func() uint64, ok func(core.InputWait) bool, what string) core.InputWait {
	t.Helper()
	deadline := time.Now().Add(suiteTimeout)
	for {
		w, err := iw.InputWait(base, taken())
		require.NoError(t, err, "InputWait")
		if ok(w) {
			return w
		}
		if time.Now().After(deadline) {
			t.Fatalf("the REPL at its prompt %s: %+v", what, w)
		}
		// Nothing signals that a program blocked in a read: ask again.
		time.Sleep(2 * time.Millisecond)
	}
}
