package testharness

import (
	"context"
	"crypto/rand"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptyseam/ptyseam/core"
)

// BackendHarness says how [TestBackend] runs a backend.
type BackendHarness struct {
	// New returns the backend under test. It is called once per sub-test;
	// it may register cleanups with t.
	New func(t *testing.T) core.Backend
	// Request returns the request that runs argv (a path of the children
	// binary and its arguments) on a terminal of the given size. Nil
	// builds core.BackendRequest{Command: argv, Size: size} with a fresh
	// marker; an ssh backend maps argv to a remote command here.
	Request func(argv []string, size core.Size) core.BackendRequest
	// Children is the path of the children binary as the backend's
	// programs see it; empty means [BuildChildren].
	Children string
	// LocalProcesses says that the backend's pids (PID and the pids the
	// children print) are pids of this machine, so that the suite can check
	// that they are gone after Close. Leave it false for remote backends.
	LocalProcesses bool
}

// TestBackend is the conformance suite of a [core.Backend]: every
// sub-test starts one of the harness's child programs through h and
// checks one part of the contract: a round trip through an echo REPL,
// input reaching a raw-mode program unchanged, exit codes and deaths by
// signal, every byte printed before a fast exit read before io.EOF,
// resize, signals to the foreground group, Close to quiescence (a setsid
// double-forked grandchild, a child that ignores SIGTERM and SIGHUP),
// idempotent and concurrent Close, invalid UTF-8 passing through as bytes,
// 10 MB of output without loss, Write honouring its context when the
// program does not read, and, for a backend that can tell, a truthful
// answer to the settle question (core.Prober.InputWait), also when the
// program reads each line on another thread.
func TestBackend(t *testing.T, h BackendHarness) {
	bs := &backendSuite{h: h}
	t.Run("RoundTrip", bs.testRoundTrip)
	t.Run("RawInput", bs.testRawInput)
	t.Run("ExitCode", bs.testExitCode)
	t.Run("DeathBySignal", bs.testDeathBySignal)
	t.Run("OutputAtExit", bs.testOutputAtExit)
	t.Run("Resize", bs.testResize)
	t.Run("SignalForeground", bs.testSignalForeground)
	t.Run("CloseKillsSetsidGrandchild", bs.testCloseSetsid)
	t.Run("CloseKillsIgnoreTerm", bs.testCloseIgnoreTerm)
	t.Run("CloseIdempotentConcurrent", bs.testCloseConcurrent)
	t.Run("InvalidUTF8", bs.testInvalidUTF8)
	t.Run("LargeOutput", bs.testLargeOutput)
	t.Run("WriteHonoursContext", bs.testWriteContext)
	t.Run("InputWatcher", bs.testInputWatcher)
	t.Run("InputWatcherNewReader", bs.testInputWatcherNewReader)
}

type backendSuite struct {
	h BackendHarness
}

// suiteTimeout bounds each sub-test's waits; hitting it is a failure, not
// a measurement.
const suiteTimeout = 60 * time.Second

var suiteSize = core.Size{Rows: 24, Cols: 80}

func (bs *backendSuite) argv(t *testing.T, args ...string) []string {
	bin := bs.h.Children
	if bin == "" {
		bin = BuildChildren(t)
	}
	return append([]string{bin}, args...)
}

// start runs a child program and collects its output. Cleanup closes the
// session and checks that Read returned.
func (bs *backendSuite) start(t *testing.T, size core.Size, args ...string) (core.BackendSession, *collector) {
	t.Helper()
	argv := bs.argv(t, args...)
	req := core.BackendRequest{Command: argv, Size: size, Marker: "testharness-" + rand.Text()}
	if bs.h.Request != nil {
		req = bs.h.Request(argv, size)
	}
	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	defer cancel()
	s, err := bs.h.New(t).Spawn(ctx, req)
	require.NoError(t, err, "Spawn(%q)", args)
	c := collect(s)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
		defer cancel()
		assert.NoError(t, s.Close(ctx), "Close")
		_, _, ok := c.waitEOF(ctx)
		assert.True(t, ok, "Read did not return after Close")
	})
	return s, c
}

// mustSee waits for s in the output or fails the test.
func mustSee(t *testing.T, c *collector, s string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	defer cancel()
	out, ok := c.waitContains(ctx, s)
	require.True(t, ok, "output never contained %q; got %q", s, tail(out, 400))
	return out
}

// mustEOF waits for the end of output or fails the test.
func mustEOF(t *testing.T, c *collector) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	defer cancel()
	out, err, ok := c.waitEOF(ctx)
	require.True(t, ok, "Read did not reach the end of output; got %q", tail(out, 400))
	require.True(t, endedWithEOF(err), "Read ended with %v, want io.EOF", err)
	return out
}

// mustExit waits for Exited and returns the status.
func mustExit(t *testing.T, s core.BackendSession) core.Status {
	t.Helper()
	select {
	case <-s.Exited():
	case <-time.After(suiteTimeout):
		t.Fatalf("Exited was not closed after the program exited")
	}
	return s.ExitStatus()
}

func write(t *testing.T, s core.BackendSession, data string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	defer cancel()
	n, err := s.Write(ctx, []byte(data))
	require.NoError(t, err, "Write(%q)", data)
	require.Equal(t, len(data), n, "Write(%q) wrote", data)
}

// tail returns the last n bytes of b, for messages.
func tail[T ~[]byte | ~string](b T, n int) T {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
