package testharness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// testExitCode: the status carries the program's exit code.
func (bs *backendSuite) testExitCode(t *testing.T) {
	for _, code := range []int{0, 3, 255} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			s, c := bs.start(t, suiteSize, "exit-with", strconv.Itoa(code))
			out := mustEOF(t, c)
			if want := fmt.Sprintf("exit-with %d\r\n", code); string(out) != want {
				t.Errorf("output = %q, want %q", out, want)
			}
			if st := mustExit(t, s); st != core.ExitedWithCode(code) {
				t.Errorf("status = %#v, want exited %d", st, code)
			}
		})
	}
}

// testDeathBySignal: the status names the signal that killed the program.
func (bs *backendSuite) testDeathBySignal(t *testing.T) {
	for _, sig := range []string{"SIGTERM", "SIGKILL", "SIGHUP"} {
		t.Run(sig, func(t *testing.T) {
			s, c := bs.start(t, suiteSize, "exit-with", sig)
			mustEOF(t, c)
			if st := mustExit(t, s); st != core.ExitedWithSignal(sig) {
				t.Errorf("status = %#v, want killed by %s", st, sig)
			}
		})
	}
}

// testResize: the program sees the initial size and every change.
func (bs *backendSuite) testResize(t *testing.T) {
	s, c := bs.start(t, core.Size{Rows: 24, Cols: 80}, "report-size")
	mustSee(t, c, "size 24 80\r\n")
	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	defer cancel()
	if err := s.Resize(ctx, core.Size{Rows: 30, Cols: 100}); err != nil {
		t.Fatalf("Resize: %v", err)
	}
	mustSee(t, c, "size 30 100\r\n")
	if err := s.Resize(ctx, core.Size{Rows: 5, Cols: 7}); err != nil {
		t.Fatalf("Resize: %v", err)
	}
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
	if err != nil || !res.Delivered {
		t.Fatalf("Signal(SIGINT) = %+v, %v", res, err)
	}
	if bs.h.LocalProcesses && res.TargetPGID != s.PID() {
		t.Errorf("SIGINT went to group %d, want the program's group %d", res.TargetPGID, s.PID())
	}
	mustSee(t, c, "interrupted\r\n> ")
	if _, err := s.Signal(ctx, core.SignalRequest{Signal: core.SIGKILL}); !errors.Is(err, core.ErrSignalRefused) {
		t.Errorf("SIGKILL to the top-level group without AllowLeader: err = %v, want SIGNAL_REFUSED", err)
	}
	if res, err := s.Signal(ctx, core.SignalRequest{Signal: core.SIGKILL, AllowLeader: true}); err != nil || !res.Delivered {
		t.Fatalf("Signal(SIGKILL, AllowLeader) = %+v, %v", res, err)
	}
	mustEOF(t, c)
	if st := mustExit(t, s); st != core.ExitedWithSignal("SIGKILL") {
		t.Errorf("status = %v, want killed by SIGKILL", st)
	}
}

// testCloseSetsid: Close kills a grandchild that left the session with
// setsid and a double fork, and keeps the terminal open.
func (bs *backendSuite) testCloseSetsid(t *testing.T) {
	s, c := bs.start(t, suiteSize, "setsid-grandchild")
	out := mustSee(t, c, "\r\n")
	var gpid int
	if _, err := fmt.Sscanf(string(out), "grandchild %d", &gpid); err != nil || gpid <= 0 {
		t.Fatalf("no grandchild pid in %q", out)
	}
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
			if !p.alive() {
				t.Fatalf("pid %d is not alive before Close", p.pid)
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	defer cancel()
	if err := s.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if bs.h.LocalProcesses {
		for _, p := range procs {
			if p.alive() {
				t.Errorf("pid %d survived Close", p.pid)
			}
		}
	}
	if _, _, ok := c.waitEOF(ctx); !ok {
		t.Errorf("Read did not return after Close")
	}
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
		if err != nil {
			t.Errorf("concurrent Close %d: %v", i, err)
		}
	}
	if err := s.Close(ctx); err != nil {
		t.Errorf("Close after Close: %v", err)
	}
	if bs.h.LocalProcesses && p.alive() {
		t.Errorf("pid %d survived Close", p.pid)
	}
	out, _, ok := c.waitEOF(ctx)
	if !ok {
		t.Errorf("Read did not return after Close")
	}
	if !bytes.HasPrefix(out, []byte("> ")) {
		t.Errorf("output = %q", out)
	}
}
