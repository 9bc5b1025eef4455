package sshagent_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshagent"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/remote"
	"github.com/ptyseam/ptyseam/remote/remotetest"
	"github.com/ptyseam/ptyseam/testharness"
)

// waitLimit bounds every wait for behaviour in the tests: a hang guard,
// not a timing assertion (testenv.HangBound, the workspace's one bound).
const waitLimit = testenv.HangBound

// platform is this machine's, the far side of every test here.
var platform = runtime.GOOS + "/" + runtime.GOARCH

// target returns the target of the test user on srv.
func target(t *testing.T, srv *sshdtest.Server) *ssh.Target {
	t.Helper()
	kh := filepath.Join(t.TempDir(), "known_hosts")
	if err := srv.WriteKnownHosts(kh); err != nil {
		t.Fatal(err)
	}
	return &ssh.Target{Host: srv.Host, Port: srv.Port, User: srv.User, Auth: ssh.Auth{Password: srv.Password},
		HostKeys: ssh.HostKeyPolicy{KnownHostsFiles: []string{kh}}}
}

// logCount counts log records whose message contains a string.
type logCount struct {
	mu   sync.Mutex
	msgs []string
}

func (l *logCount) Enabled(context.Context, slog.Level) bool { return true }
func (l *logCount) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.msgs = append(l.msgs, r.Message)
	return nil
}
func (l *logCount) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logCount) WithGroup(string) slog.Handler      { return l }

func (l *logCount) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, m := range l.msgs {
		if strings.Contains(m, s) {
			n++
		}
	}
	return n
}

// dialer returns a Dialer over a fresh ssh backend that uploads the
// built agent; cleanup closes both.
func dialer(t *testing.T, opts sshagent.Options) (*sshagent.Dialer, *ssh.Backend) {
	t.Helper()
	if opts.Binaries == nil && opts.RemotePath == "" {
		opts.Binaries = map[string]string{platform: remotetest.Binary(t)}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	b := ssh.NewBackend(ssh.BackendOptions{Logger: slog.New(slog.DiscardHandler)})
	d := sshagent.New(b, opts)
	t.Cleanup(func() { _ = d.Close() })
	return d, b
}

// childrenForAll builds the suites' children binary where the sshd test
// user can run it.
func childrenForAll(t *testing.T) string {
	bin := testharness.BuildChildren(t)
	for _, p := range []string{filepath.Dir(bin), bin} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return bin
}

// newService returns a service with b registered; cleanup shuts it down.
func newService(t *testing.T, b core.Backend) *core.Service { return remotetest.NewService(t, b) }

// killConnection kills the per-connection sshd processes above the agent
// (pid), as a dropped connection ends them, and nothing else: the agent
// must notice its stream ended and clean up by itself.
func killConnection(t *testing.T, agentPID int) {
	t.Helper()
	// Name the processes first, then kill: once the session's sshd is
	// killed, its parent (the connection's monitor) exits and can no
	// longer be read.
	var kill []int
	pid := agentPID
	for range 2 {
		pid = parentOf(t, pid)
		exe, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
		if filepath.Base(exe) != "sshd" {
			t.Fatalf("the agent's ancestor %d is %q, not sshd", pid, exe)
		}
		cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if strings.Contains(string(cmdline), "sshd_config") {
			break // the listener: keep it
		}
		kill = append(kill, pid)
	}
	for _, pid := range kill {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

func parentOf(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// waitGone waits for a process to end.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for testharness.ProcessAlive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d did not end", pid)
		}
		time.Sleep(10 * time.Millisecond) // polling /proc for the exit
	}
}

func slogNew(h slog.Handler) *slog.Logger { return slog.New(h) }

// warmCache uploads the agent to this process's cache on the far side
// (sshdtest.ProcessCacheDir, which its servers share) before a test whose
// bounded steps should not include the upload (about 11 MB through
// x/crypto's ssh, slow under -race on a loaded machine).
func warmCache(t *testing.T, tg *ssh.Target) {
	t.Helper()
	d, _ := dialer(t, sshagent.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	c, err := d.Connect(ctx, tg)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	_ = c.Close()
}

// cachedName is the name the far side's cache gives the built agent:
// the protocol version and the binary's SHA-256.
func cachedName(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(remotetest.Binary(t))
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("agent-v%d-%x", remote.ProtocolVersion, sha256.Sum256(b))
}
