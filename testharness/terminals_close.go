package testharness

import (
	"fmt"
	"sync"
	"testing"

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
	if closed, err := terms.Close(ctx, owner, res.ID, "first"); !closed || err != nil {
		t.Fatalf("first Close = %v, %v; want true, nil", closed, err)
	}
	if ts.h.LocalProcesses && p.alive() {
		t.Errorf("pid %d survived Close", p.pid)
	}
	if closed, err := terms.Close(ctx, owner, res.ID, "second"); closed || err != nil {
		t.Errorf("second Close = %v, %v; want false, nil", closed, err)
	}
	_, err := terms.Send(ctx, owner, res.ID, core.SendRequest{Data: []byte("x"), Submit: true})
	wantCode(t, "Send after Close", err, core.CodeNoSession)
	_, err = terms.Signal(ctx, owner, res.ID, core.SignalRequest{Signal: core.SIGINT})
	wantCode(t, "Signal after Close", err, core.CodeNoSession)
	_, err = terms.Read(owner, res.ID, core.PageRequest{})
	wantCode(t, "Read after Close", err, core.CodeNoSession)
	err = terms.Resize(ctx, owner, res.ID, core.Size{Rows: 10, Cols: 10})
	wantCode(t, "Resize after Close", err, core.CodeNoSession)
	_, err = terms.Info(owner, res.ID)
	wantCode(t, "Info after Close", err, core.CodeNoSession)
	if list, err := terms.List(owner); err != nil || len(list) != 0 {
		t.Errorf("List after Close = %+v, %v; want empty", list, err)
	}
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
		if errs[i] != nil {
			t.Errorf("Close %d: %v", i, errs[i])
		}
		if closed[i] {
			trues++
		}
	}
	if trues != 1 {
		t.Errorf("%d of %d concurrent Closes returned true, want exactly 1 (one shared teardown)", trues, len(closed))
	}
	if ts.h.LocalProcesses && p.alive() {
		t.Errorf("pid %d survived Close", p.pid)
	}
}

// testCloseKillsTree: Close kills a setsid double-forked grandchild.
func (ts *termSuite) testCloseKillsTree(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("tree")
	res := spawn(t, terms, owner, ts.request(t, "setsid-grandchild"))
	out := waitText(t, terms, owner, res.ID, "grandchild ")
	var gpid int
	if _, err := fmt.Sscanf(out, "grandchild %d", &gpid); err != nil {
		t.Fatalf("no grandchild pid in %q", out)
	}
	procs := []trackedProcess{track(res.PID), track(gpid)}
	if closed, err := terms.Close(testCtx(t), owner, res.ID, "tree"); !closed || err != nil {
		t.Fatalf("Close = %v, %v", closed, err)
	}
	if ts.h.LocalProcesses {
		for _, p := range procs {
			if p.alive() {
				t.Errorf("pid %d survived Close", p.pid)
			}
		}
	}
}
