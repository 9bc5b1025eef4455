package ssh

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"log/slog"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
	gossh "golang.org/x/crypto/ssh"
)

// waitLimit bounds every wait for behaviour in the tests: a hang guard,
// not a schedule (testenv.HangBound; a login shell's first prompt took
// over 5 s on a loaded two-core machine). The limits of what the code
// must do quickly (a cancelled spawn, a lost connection) are asserted
// separately.
const waitLimit = testenv.HangBound

// term collects a backend session's output in the background.
type term struct {
	s       core.BackendSession
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{}
	eof     chan struct{}
	err     error
}

func newTerm(s core.BackendSession) *term {
	t := &term{s: s, changed: make(chan struct{}, 1), eof: make(chan struct{})}
	go func() {
		defer close(t.eof)
		p := make([]byte, 4096)
		for {
			n, err := s.Read(p)
			t.mu.Lock()
			t.buf.Write(p[:n])
			if err != nil && err != io.EOF {
				t.err = err
			}
			t.mu.Unlock()
			select {
			case t.changed <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	return t
}

func (t *term) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}

// waitFor waits until the output matches re and returns the match.
func (t *term) waitFor(tb testing.TB, re string, timeout time.Duration) []string {
	tb.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		if m := rx.FindStringSubmatch(t.String()); m != nil {
			return m
		}
		select {
		case <-t.changed:
		case <-t.eof:
			if m := rx.FindStringSubmatch(t.String()); m != nil {
				return m
			}
			tb.Fatalf("output ended without %q; output:\n%s", re, t.String())
		case <-deadline.C:
			tb.Fatalf("timed out waiting for %q; output:\n%s", re, t.String())
		}
	}
}

func (t *term) send(tb testing.TB, s string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if _, err := t.s.Write(ctx, []byte(s)); err != nil {
		tb.Fatalf("write: %v", err)
	}
}

func (t *term) waitEOF(tb testing.TB, timeout time.Duration) {
	tb.Helper()
	select {
	case <-t.eof:
	case <-time.After(timeout):
		tb.Fatalf("no EOF within %v; output:\n%s", timeout, t.String())
	}
}

func closeSession(tb testing.TB, s core.BackendSession) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := s.Close(ctx); err != nil {
		tb.Errorf("close: %v", err)
	}
}

const testPrompt = "sshtest$ "

func newServer(tb testing.TB, cfg sshtest.Config) *sshtest.Server {
	tb.Helper()
	if cfg.Env == nil {
		cfg.Env = []string{"PS1=" + testPrompt}
	}
	// A login shell (what a session whose variables the server refused
	// runs) reads the startup files in HOME: the tester's own, which can be
	// slow or hang (a stale pyenv lock made 'bash -l' take 75 s on a
	// contributor's machine). An empty HOME keeps the tests about this
	// package; exec uses the last HOME in the list.
	if !slices.ContainsFunc(cfg.Env, func(e string) bool { return strings.HasPrefix(e, "HOME=") }) {
		cfg.Env = append(cfg.Env, "HOME="+tb.TempDir())
	}
	srv, err := sshtest.NewServer(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = srv.Close() })
	return srv
}

// targetFor returns a target for srv trusting it through a known_hosts file.
func targetFor(tb testing.TB, srv *sshtest.Server, user string, auth Auth) *Target {
	tb.Helper()
	kh := filepath.Join(tb.TempDir(), "known_hosts")
	if err := srv.WriteKnownHosts(kh); err != nil {
		tb.Fatal(err)
	}
	return &Target{Host: srv.Host(), Port: srv.Port(), User: user, Auth: auth,
		HostKeys: HostKeyPolicy{KnownHostsFiles: []string{kh}}}
}

func spawn(tb testing.TB, b *Backend, t *Target, req core.BackendRequest) core.BackendSession {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	req.Options = t
	if req.Size == (core.Size{}) {
		req.Size = core.Size{Rows: 24, Cols: 80}
	}
	s, err := b.Spawn(ctx, req)
	if err != nil {
		tb.Fatalf("spawn: %v", err)
	}
	return s
}

// logBuffer is a concurrency-safe log sink.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func newBackend(logs *logBuffer) *Backend {
	var lg *slog.Logger
	if logs != nil {
		lg = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	} else {
		lg = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return NewBackend(BackendOptions{Logger: lg})
}

func newSigner(tb testing.TB) gossh.Signer {
	s, _ := newKeyPair(tb)
	return s
}

func newKeyPair(tb testing.TB) (gossh.Signer, ed25519.PrivateKey) {
	tb.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		tb.Fatal(err)
	}
	return s, priv
}
