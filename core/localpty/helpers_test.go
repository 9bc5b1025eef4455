package localpty

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// waitLimit bounds every wait for behaviour in the tests: a hang guard,
// not a timing assertion (testenv.HangBound, the workspace's one bound).
const waitLimit = testenv.HangBound

// testMarkerPrefix starts every marker the tests use, so that TestMain
// can look for any process a test left behind. It is random per test
// binary: another run of these tests on the same machine (a second
// worktree, a parallel CI job) must neither count as this run's leftovers
// nor share a marker with it, since a session's teardown kills every
// process carrying its marker.
var testMarkerPrefix = "lpt-" + randomHex(4) + "-"

// term drives one session in a test: a goroutine collects its output until
// io.EOF, and cleanup closes it and checks that nothing survived.
type term struct {
	t      *testing.T
	s      *session
	marker string

	mu      sync.Mutex
	out     []byte
	readErr error
	eof     chan struct{}
}

func testMarker(t *testing.T) string {
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, t.Name())
	return testMarkerPrefix + name + "-" + randomHex(4)
}

// startTerm spawns req on b and starts collecting output.
func startTerm(t *testing.T, b *Backend, req core.BackendRequest) *term {
	t.Helper()
	if req.Marker == "" {
		req.Marker = testMarker(t)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	bs, err := b.Spawn(ctx, req)
	if err != nil {
		t.Fatalf("spawn %q: %v", req.Command, err)
	}
	tm := &term{t: t, s: bs.(*session), marker: req.Marker, eof: make(chan struct{})}
	go tm.readLoop()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		if err := tm.s.Close(ctx); err != nil {
			t.Errorf("close: %v", err)
		}
		select {
		case <-tm.eof:
		case <-time.After(waitLimit):
			t.Errorf("Read did not return after Close")
		}
		assertNoSurvivors(t, tm.marker)
	})
	return tm
}

func (tm *term) readLoop() {
	defer close(tm.eof)
	buf := make([]byte, 32<<10)
	for {
		n, err := tm.s.Read(buf)
		tm.mu.Lock()
		tm.out = append(tm.out, buf[:n]...)
		if err != nil {
			tm.readErr = err
		}
		tm.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// output returns everything read so far.
func (tm *term) output() []byte {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return bytes.Clone(tm.out)
}

// waitFor waits until the output holds n occurrences of sub.
func (tm *term) waitForN(sub string, n int) []byte {
	tm.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		out := tm.output()
		if bytes.Count(out, []byte(sub)) >= n {
			return out
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("no %d× %q in output:\n%q", n, sub, tail(out))
		}
		select {
		case <-tm.eof:
			out = tm.output()
			if bytes.Count(out, []byte(sub)) >= n {
				return out
			}
			tm.t.Fatalf("EOF (%v) before %d× %q in output:\n%q", tm.readErr, n, sub, tail(out))
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func (tm *term) waitFor(sub string) []byte {
	tm.t.Helper()
	return tm.waitForN(sub, 1)
}

// count returns how often sub occurs in the output so far.
func (tm *term) count(sub string) int { return bytes.Count(tm.output(), []byte(sub)) }

// send writes s to the terminal.
func (tm *term) send(s string) {
	tm.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if _, err := tm.s.Write(ctx, []byte(s)); err != nil {
		tm.t.Fatalf("write %q: %v", s, err)
	}
}

// waitEOF waits for Read to return io.EOF and for the top-level exit.
func (tm *term) waitEOF() []byte {
	tm.t.Helper()
	select {
	case <-tm.eof:
	case <-time.After(waitLimit):
		tm.t.Fatalf("no EOF; output:\n%q", tail(tm.output()))
	}
	if tm.readErr != io.EOF {
		tm.t.Fatalf("Read ended with %v, want io.EOF", tm.readErr)
	}
	select {
	case <-tm.s.Exited():
	case <-time.After(waitLimit):
		tm.t.Fatalf("EOF but the top-level process did not exit")
	}
	return tm.output()
}

// eventually polls f until it returns true.
func eventually(t *testing.T, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func tail(b []byte) []byte {
	if len(b) > 2000 {
		return b[len(b)-2000:]
	}
	return b
}

// need skips the test when a program is missing, and fails it in CI
// (CI set), where make deps installs every program the tests use.
func need(t testing.TB, progs ...string) {
	t.Helper()
	for _, p := range progs {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed (make deps installs it): %v", p, err)
			}
			t.Skipf("%s not installed", p)
		}
	}
}

// shortOpts keeps teardown fast in tests.
func shortOpts(disableCgroup bool) Options {
	return Options{CloseGrace: 150 * time.Millisecond, DisableCgroup: disableCgroup, Logger: slog.New(slog.DiscardHandler)}
}

// modes are the two teardown paths every Close test runs on.
var modes = []struct {
	name          string
	disableCgroup bool
}{{"cgroup", false}, {"procscan", true}}

func pyCmd(code string) []string { return []string{"python3", "-c", code} }

func mustf(t *testing.T, err error, format string, args ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", fmt.Sprintf(format, args...), err)
	}
}
