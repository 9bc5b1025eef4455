package testharness

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptyseam/ptyseam/core"
)

// testCloseIdempotent: Close returns true, then false; the closed session
// refuses everything with NO_SESSION and leaves the List; its process is
// gone.
func (ts *termSuite) testCloseIdempotent(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("close")
	res := spawn(t, terms, owner, ts.request(t, "echo-repl"))
	p := track(res.PID)
	ctx := testCtx(t)
	closed, err := terms.Close(ctx, owner, res.ID, "first")
	require.NoError(t, err, "first Close")
	require.True(t, closed, "the first Close reports that it closed the session")
	if ts.h.LocalProcesses {
		assert.False(t, p.alive(), "pid %d survived Close", p.pid)
	}
	closed, err = terms.Close(ctx, owner, res.ID, "second")
	assert.NoError(t, err, "second Close")
	assert.False(t, closed, "the second Close reports that it closed the session")
	_, err = terms.Send(ctx, owner, res.ID, core.SendRequest{Data: "x"})
	wantCode(t, "Send after Close", err, core.CodeNoSession)
	_, err = terms.Signal(ctx, owner, res.ID, core.SignalRequest{Signal: core.SIGINT})
	wantCode(t, "Signal after Close", err, core.CodeNoSession)
	_, err = terms.Read(owner, res.ID, core.PageRequest{})
	wantCode(t, "Read after Close", err, core.CodeNoSession)
	err = terms.Resize(ctx, owner, res.ID, core.Size{Rows: 10, Cols: 10})
	wantCode(t, "Resize after Close", err, core.CodeNoSession)
	_, err = terms.Info(owner, res.ID)
	wantCode(t, "Info after Close", err, core.CodeNoSession)
	list, err := terms.List(owner)
	assert.NoError(t, err, "List after Close")
	assert.Empty(t, list, "List after Close")
}

// testConcurrentClose: concurrent closes of a program that ignores SIGTERM
// share one teardown: exactly one reports true, none fails.
func (ts *termSuite) testConcurrentClose(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("concurrent")
	res := spawn(t, terms, owner, ts.request(t, "ignore-term"))
	waitText(t, terms, owner, res.ID, "ready")
	p := track(res.PID)
	ctx := testCtx(t)
	var wg sync.WaitGroup
	closed := make([]bool, 8)
	errs := make([]error, 8)
	for i := range closed {
		wg.Go(func() { closed[i], errs[i] = terms.Close(ctx, owner, res.ID, fmt.Sprint("closer ", i)) })
	}
	wg.Wait()
	trues := 0
	for i := range closed {
		assert.NoError(t, errs[i], "Close %d", i)
		if closed[i] {
			trues++
		}
	}
	assert.Equal(t, 1, trues, "concurrent Closes that returned true (one shared teardown)")
	if ts.h.LocalProcesses {
		assert.False(t, p.alive(), "pid %d survived Close", p.pid)
	}
}

// testCloseKillsTree: Close kills a setsid double-forked grandchild.
func (ts *termSuite) testCloseKillsTree(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("tree")
	res := spawn(t, terms, owner, ts.request(t, "setsid-grandchild"))
	out := waitText(t, terms, owner, res.ID, "grandchild ")
	var gpid int
	_, err := fmt.Sscanf(out, "grandchild %d", &gpid)
	require.NoError(t, err, "the grandchild's pid in %q", out)
	procs := []trackedProcess{track(res.PID), track(gpid)}
	closed, err := terms.Close(testCtx(t), owner, res.ID, "tree")
	require.NoError(t, err, "Close")
	require.True(t, closed, "Close reports that it closed the session")
	if ts.h.LocalProcesses {
		for _, p := range procs {
			assert.False(t, p.alive(), "pid %d survived Close", p.pid)
		}
	}
}
