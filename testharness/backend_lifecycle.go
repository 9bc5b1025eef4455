package testharness

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptyseam/ptyseam/core"
)

// testExitCode: the status carries the program's exit code.
func (bs *backendSuite) testExitCode(t *testing.T) {
	for _, code := range []int{0, 3, 255} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			s, c := bs.start(t, suiteSize, "exit-with", strconv.Itoa(code))
			assert.Equal(t, fmt.Sprintf("exit-with %d\r\n", code), string(mustEOF(t, c)), "output")
			assert.Equal(t, core.ExitedWithCode(code), mustExit(t, s), "status")
		})
	}
}

// testDeathBySignal: the status names the signal that killed the program.
func (bs *backendSuite) testDeathBySignal(t *testing.T) {
	for _, sig := range []string{"SIGTERM", "SIGKILL", "SIGHUP"} {
		t.Run(sig, func(t *testing.T) {
			s, c := bs.start(t, suiteSize, "exit-with", sig)
			mustEOF(t, c)
			assert.Equal(t, core.ExitedWithSignal(sig), mustExit(t, s), "status")
		})
	}
}

// testResize: the program sees the initial size and every change.
func (bs *backendSuite) testResize(t *testing.T) {
	s, c := bs.start(t, core.Size{Rows: 24, Cols: 80}, "report-size")
	mustSee(t, c, "size 24 80\r\n")
	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	defer cancel()
	require.NoError(t, s.Resize(ctx, core.Size{Rows: 30, Cols: 100}), "Resize to 30x100")
	mustSee(t, c, "size 30 100\r\n")
	require.NoError(t, s.Resize(ctx, core.Size{Rows: 5, Cols: 7}), "Resize to 5x7")
	mustSee(t, c, "size 5 7\r\n")
}

// testSignalForeground: a signal reaches the foreground group; SIGKILL to
// the top-level group is refused unless allowed.
func (bs *backendSuite) testSignalForeground(t *testing.T) {
	s, c := bs.start(t, suiteSize, "echo-repl")
	mustSee(t, c, "> ")
	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	defer cancel()
	res, err := s.Signal(ctx, core.SignalRequest{Signal: core.SIGINT})
	require.NoError(t, err, "Signal(SIGINT)")
	require.True(t, res.Delivered, "Signal(SIGINT) delivered: %+v", res)
	if bs.h.LocalProcesses {
		assert.Equal(t, s.PID(), res.TargetPGID, "SIGINT's group (the program's)")
	}
	mustSee(t, c, "interrupted\r\n> ")
	_, err = s.Signal(ctx, core.SignalRequest{Signal: core.SIGKILL})
	assert.ErrorIs(t, err, core.ErrSignalRefused, "SIGKILL to the top-level group without AllowLeader")
	res, err = s.Signal(ctx, core.SignalRequest{Signal: core.SIGKILL, AllowLeader: true})
	require.NoError(t, err, "Signal(SIGKILL, AllowLeader)")
	require.True(t, res.Delivered, "Signal(SIGKILL, AllowLeader) delivered: %+v", res)
	mustEOF(t, c)
	assert.Equal(t, core.ExitedWithSignal("SIGKILL"), mustExit(t, s), "status")
}

// testCloseSetsid: Close kills a grandchild that left the session with
// setsid and a double fork, and keeps the terminal open.
func (bs *backendSuite) testCloseSetsid(t *testing.T) {
	s, c := bs.start(t, suiteSize, "setsid-grandchild")
	out := mustSee(t, c, "\r\n")
	var gpid int
	_, err := fmt.Sscanf(string(out), "grandchild %d", &gpid)
	require.NoError(t, err, "the grandchild's pid in %q", out)
	require.Positive(t, gpid, "the grandchild's pid in %q", out)
	bs.closeAndCheck(t, s, c, gpid)
}

// testCloseIgnoreTerm: Close kills a program that ignores SIGTERM and
// SIGHUP.
func (bs *backendSuite) testCloseIgnoreTerm(t *testing.T) {
	s, c := bs.start(t, suiteSize, "ignore-term")
	mustSee(t, c, "ready")
	bs.closeAndCheck(t, s, c)
}

// closeAndCheck closes s and checks that it and the extra pids are gone.
func (bs *backendSuite) closeAndCheck(t *testing.T, s core.BackendSession, c *collector, extra ...int) {
	t.Helper()
	procs := []trackedProcess{track(s.PID())}
	for _, pid := range extra {
		procs = append(procs, track(pid))
	}
	if bs.h.LocalProcesses {
		for _, p := range procs {
			require.True(t, p.alive(), "pid %d is not alive before Close", p.pid)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	defer cancel()
	require.NoError(t, s.Close(ctx), "Close")
	if bs.h.LocalProcesses {
		for _, p := range procs {
			assert.False(t, p.alive(), "pid %d survived Close", p.pid)
		}
	}
	_, _, ok := c.waitEOF(ctx)
	assert.True(t, ok, "Read returned after Close")
	select {
	case <-s.Exited():
	default:
		t.Errorf("Exited is not closed after Close returned")
	}
}

// testCloseConcurrent: concurrent Closes all succeed, and so does a later
// one.
func (bs *backendSuite) testCloseConcurrent(t *testing.T) {
	s, c := bs.start(t, suiteSize, "echo-repl")
	mustSee(t, c, "> ")
	p := track(s.PID())
	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { errs[i] = s.Close(ctx) })
	}
	wg.Wait()
	for i, err := range errs {
		assert.NoError(t, err, "concurrent Close %d", i)
	}
	assert.NoError(t, s.Close(ctx), "Close after Close")
	if bs.h.LocalProcesses {
		assert.False(t, p.alive(), "pid %d survived Close", p.pid)
	}
	out, _, ok := c.waitEOF(ctx)
	assert.True(t, ok, "Read returned after Close")
	assert.True(t, bytes.HasPrefix(out, []byte("> ")), "output %q starts with the prompt", out)
}
