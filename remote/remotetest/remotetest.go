// Package remotetest holds what tests of the remote protocol and of its
// transports (consumers/ssh/sshagent) share: the `ptyseam-agent` binary
// they run as the agent, and a backend wrapper that lists its sessions' processes
// on the far side. It imports no test framework, only the standard
// library's testing.
package remotetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

var build struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// Binary builds the slim agent (remote/cmd/ptyseam-agent) once per test
// process, static (CGO off) and stripped as a deployer ships it, into a
// directory every user can read (an sshd test user runs it), and returns
// its path. It takes `agent` as its first argument like `ptyseam agent`,
// whose tests run the server binary itself (cmd/ptyseam). testenv.RemoveRegistered (which
// testharness.Cleanup, RunMarked and VerifyTestMain run) removes it.
func Binary(t testing.TB) string {
	t.Helper()
	build.once.Do(func() {
		dir, err := testenv.BuildDir("agent-") // every user can read it
		if err != nil {
			build.err = err
			return
		}
		path := filepath.Join(dir, "ptyseam-agent")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "build", "-ldflags=-s -w", "-o", path, "github.com/ptyseam/ptyseam/remote/cmd/ptyseam-agent")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			build.err = fmt.Errorf("go build remote/cmd/ptyseam-agent: %v\n%s", err, out)
			_ = os.RemoveAll(dir)
			return
		}
		build.dir, build.path = dir, path
	})
	if build.err != nil {
		t.Fatal(build.err)
	}
	return build.path
}

// Markers wraps a backend and records the marker of every session it
// spawns, so that a test can list the session's processes on the far side:
// every process of a session inherits PTYSEAM_SESSION=<marker>, setsid
// escapees included. The far sides of these tests are this machine.
type Markers struct {
	core.Backend
	// Options, when set, replaces every request's Options (an ssh target
	// the suites cannot know).
	Options any

	mu   sync.Mutex
	seen []string
}

// Spawn records the marker (making one when the request has none).
func (m *Markers) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	if req.Marker == "" {
		req.Marker = "remotetest-" + RandomHex(8)
	}
	if m.Options != nil {
		req.Options = m.Options
	}
	m.mu.Lock()
	m.seen = append(m.seen, req.Marker)
	m.mu.Unlock()
	return m.Backend.Spawn(ctx, req)
}

// FarSide lists the live processes of every session spawned so far.
func (m *Markers) FarSide() []int {
	m.mu.Lock()
	defer m.mu.Unlock()
	var pids []int
	for _, mk := range m.seen {
		pids = append(pids, testenv.Survivors("PTYSEAM_SESSION="+mk)...)
	}
	return pids
}

// WaitFarSide waits until the far side runs at least n processes of the
// sessions, and returns them.
func (m *Markers) WaitFarSide(t testing.TB, n int, limit time.Duration) []int {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		pids := m.FarSide()
		if len(pids) >= n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("the far side runs %v, want at least %d processes", pids, n)
		}
		time.Sleep(10 * time.Millisecond) // polling /proc for processes to appear
	}
}

// CheckFarSideEmpty registers a cleanup that fails the test if any
// process of the sessions is left. Register it before the cleanups that
// close the sessions (cleanups run last-in first-out).
func (m *Markers) CheckFarSideEmpty(t testing.TB) {
	t.Cleanup(func() {
		if pids := m.FarSide(); len(pids) > 0 {
			t.Errorf("processes left on the far side: %v", pids)
		}
	})
}

// RandomHex returns n random bytes in hex.
func RandomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Send types line and Enter into session id and waits, within
// testenv.HangBound, for it to settle. The silence window is long (30 s),
// so that a send that settles on silence shows as inferred_idle and fails
// the test rather than passing slowly.
func Send(t testing.TB, svc *core.Service, owner *core.Owner, id core.SessionID, line string) core.SendResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	op, err := svc.Send(ctx, owner, id, core.SendRequest{Data: line, QuietWindow: 30 * time.Second})
	if err != nil {
		t.Fatalf("send %q: %v", line, err)
	}
	res, err := op.Wait(ctx)
	if err != nil {
		t.Fatalf("wait %q: %v", line, err)
	}
	return res
}

// WantSettled fails t unless res, line's result, settled for reason with
// want in its output.
func WantSettled(t testing.TB, line string, res core.SendResult, reason core.WaitReason, want string) {
	t.Helper()
	if res.WaitReason != reason || !strings.Contains(res.Delta, want) {
		t.Fatalf("%q settled as %s after %v with %q; want %s with %q", line, res.WaitReason, res.Elapsed, res.Delta, reason, want)
	}
	t.Logf("%q: %s after %v", line, res.WaitReason, res.Elapsed)
}

// NewService returns a service with b registered, logging nothing; it is
// shut down when the test ends.
func NewService(t testing.TB, b core.Backend) *core.Service {
	t.Helper()
	svc := core.New(core.Options{Logger: slog.New(slog.DiscardHandler)})
	if _, err := svc.Register(b); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
		defer cancel()
		if err := svc.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	})
	return svc
}
