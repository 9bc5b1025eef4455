package ssh

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

func TestSessionsShareOneConnection(t *testing.T) {
	srv := newServer(t, sshtest.Config{Password: "pw", Banner: "hi there"})
	b := newBackend(nil)
	tg := targetFor(t, srv, "test", Auth{Password: "pw"})
	var wg sync.WaitGroup
	sessions := make([]core.BackendSession, 4)
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sessions[i] = spawn(t, b, tg, core.BackendRequest{})
		}()
	}
	wg.Wait()
	if st := srv.Stats(); st.Connections != 1 || st.Sessions != 4 {
		t.Fatalf("stats %+v, want 1 connection, 4 sessions", st)
	}
	conns := b.Connections()
	if len(conns) != 1 || conns[0].Sessions != 4 || conns[0].Banner != "hi there" || !strings.HasPrefix(conns[0].HostKeyFingerprint, "SHA256:") {
		t.Fatalf("connections %+v", conns)
	}
	// Exactly one session (the one that dialed) starts with the banner.
	banners := 0
	terms := make([]*term, len(sessions))
	for i, s := range sessions {
		terms[i] = newTerm(s)
		terms[i].waitFor(t, `sshtest\$ `, waitLimit)
		if strings.HasPrefix(terms[i].String(), "hi there\r\n") {
			banners++
		}
	}
	if banners != 1 {
		t.Fatalf("%d sessions start with the banner, want 1", banners)
	}
	for _, s := range sessions {
		closeSession(t, s)
	}
	if n := len(b.Connections()); n != 0 {
		t.Fatalf("%d connections after closing all sessions", n)
	}
	// A target with other credentials does not share.
	s1 := spawn(t, b, tg, core.BackendRequest{})
	s2 := spawn(t, b, targetFor(t, srv, "test", Auth{Password: "pw", KeyFiles: nil, Agent: false, AgentSocket: "/nonexistent"}), core.BackendRequest{})
	if n := len(b.Connections()); n != 2 {
		t.Fatalf("%d connections, want 2 for different credentials", n)
	}
	closeSession(t, s1)
	closeSession(t, s2)
}

func TestResizeSeenByStty(t *testing.T) {
	srv := newServer(t, sshtest.Config{Password: "pw"})
	b := newBackend(nil)
	s := spawn(t, b, targetFor(t, srv, "test", Auth{Password: "pw"}), core.BackendRequest{Size: core.Size{Rows: 33, Cols: 101}})
	defer closeSession(t, s)
	tm := newTerm(s)
	tm.waitFor(t, `sshtest\$ `, waitLimit)
	tm.send(t, "stty size\r")
	tm.waitFor(t, `33 101\r\n`, waitLimit)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := s.Resize(ctx, core.Size{Rows: 50, Cols: 132}); err != nil {
		t.Fatal(err)
	}
	// The request is asynchronous: ask until the new size shows.
	deadline := time.Now().Add(waitLimit)
	for !strings.Contains(tm.String(), "50 132\r\n") {
		if time.Now().After(deadline) {
			t.Fatalf("new size never seen:\n%s", tm.String())
		}
		tm.send(t, "stty size\r")
		time.Sleep(50 * time.Millisecond)
	}
}

func TestSignalForegroundJobThroughTTYChar(t *testing.T) {
	srv := newServer(t, sshtest.Config{Password: "pw"})
	b := newBackend(nil)
	s := spawn(t, b, targetFor(t, srv, "test", Auth{Password: "pw"}), core.BackendRequest{})
	defer closeSession(t, s)
	tm := newTerm(s)
	tm.waitFor(t, `sshtest\$ `, waitLimit)
	// The job says it runs once it is the terminal's foreground
	// process group (an interactive bash hands it the terminal before it
	// runs the program): a Ctrl-C that came sooner would reach the shell
	// still reading the line.
	tm.send(t, "sh -c 'echo sleeping; exec sleep 60'\r")
	tm.waitFor(t, `[\r\n]sleeping\r\n`, waitLimit)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	res, err := s.Signal(ctx, core.SignalRequest{Signal: core.SIGINT})
	if err != nil || !res.Delivered || res.Method != "tty-char" {
		t.Fatalf("signal: %+v %v", res, err)
	}
	tm.waitFor(t, `\^C\r\n(\x1b\[\?2004h)?sshtest\$ `, waitLimit)
	tm.send(t, "echo status=$?\r")
	tm.waitFor(t, `status=130`, waitLimit)
	if _, err := s.Signal(ctx, core.SignalRequest{Signal: core.SIGKILL}); !errors.Is(err, core.ErrSignalRefused) {
		t.Fatalf("SIGKILL to the shell: %v, want ErrSignalRefused", err)
	}
}

func TestSignalCommandSessionAndFallback(t *testing.T) {
	for _, ignore := range []bool{false, true} {
		srv := newServer(t, sshtest.Config{Password: "pw", IgnoreSignals: ignore})
		b := newBackend(nil)
		s := spawn(t, b, targetFor(t, srv, "test", Auth{Password: "pw"}), core.BackendRequest{Command: []string{"sh", "-c", "echo ready; exec sleep 60"}})
		tm := newTerm(s)
		tm.waitFor(t, `ready`, waitLimit)
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		res, err := s.Signal(ctx, core.SignalRequest{Signal: core.SIGINT})
		want := "ssh-signal"
		if ignore {
			want = "tty-char"
		}
		if err != nil || res.Method != want {
			t.Fatalf("ignore=%v: %+v %v", ignore, res, err)
		}
		t.Logf("ignore=%v: %+v", ignore, res)
		tm.waitEOF(t, waitLimit)
		if st := s.ExitStatus(); st.Signal != "SIGINT" {
			t.Fatalf("ignore=%v: status %+v", ignore, st)
		}
		if _, err := s.Signal(ctx, core.SignalRequest{Signal: core.SIGTERM}); err == nil {
			t.Fatal("signal after exit succeeded")
		}
		cancel()
		closeSession(t, s)
	}
	// Without a tty character, a refused signal is ErrUnsupported.
	srv := newServer(t, sshtest.Config{Password: "pw", IgnoreSignals: true})
	b := newBackend(nil)
	s := spawn(t, b, targetFor(t, srv, "test", Auth{Password: "pw"}), core.BackendRequest{Command: []string{"sleep", "60"}})
	defer closeSession(t, s)
	if _, err := s.Signal(context.Background(), core.SignalRequest{Signal: core.SIGTERM}); !errors.Is(err, core.ErrUnsupported) {
		t.Fatalf("refused SIGTERM: %v", err)
	}
}

func TestEnvAcceptedRefusedAndDir(t *testing.T) {
	srv := newServer(t, sshtest.Config{Password: "pw", AcceptEnv: []string{"OK_VAR"}})
	b := newBackend(nil)
	tg := targetFor(t, srv, "test", Auth{Password: "pw"})
	dir := t.TempDir()
	s := spawn(t, b, tg, core.BackendRequest{
		Command: []string{"sh", "-c", `echo "[$OK_VAR][$REFUSED][$(pwd)]"`},
		Env:     []string{"OK_VAR=yes", "REFUSED=it's $HOME `x`"},
		Dir:     dir,
	})
	tm := newTerm(s)
	tm.waitEOF(t, waitLimit)
	closeSession(t, s)
	if want := "[yes][it's $HOME `x`][" + dir + "]"; !strings.Contains(tm.String(), want) {
		t.Fatalf("output %q, want %q", tm.String(), want)
	}
	// A shell session with a refused variable still gets a shell.
	// (It is a login shell then, which may set its own prompt.)
	s = spawn(t, b, tg, core.BackendRequest{Env: []string{"REFUSED=v1"}})
	tm = newTerm(s)
	tm.waitFor(t, `[$#] $`, waitLimit)
	tm.send(t, "echo got=$REFUSED\r")
	tm.waitFor(t, `got=v1`, waitLimit)
	closeSession(t, s)
}

func TestDroppedConnectionEndsSessions(t *testing.T) {
	srv := newServer(t, sshtest.Config{Password: "pw"})
	b := newBackend(nil)
	tg := targetFor(t, srv, "test", Auth{Password: "pw"})
	s1 := spawn(t, b, tg, core.BackendRequest{})
	s2 := spawn(t, b, tg, core.BackendRequest{Command: []string{"sleep", "60"}})
	t1, t2 := newTerm(s1), newTerm(s2)
	t1.waitFor(t, `sshtest\$ `, waitLimit)
	srv.DropConnections()
	for i, tm := range []*term{t1, t2} {
		tm.waitEOF(t, waitLimit)
		st := tm.s.ExitStatus()
		if !st.Exited() || st.Reason != "connection lost" {
			t.Fatalf("session %d: status %+v", i, st)
		}
	}
	if _, err := s1.Write(context.Background(), []byte("x")); err == nil {
		t.Fatal("write after connection loss succeeded")
	}
	closeSession(t, s1)
	closeSession(t, s2)
	// The pool dials again.
	s3 := spawn(t, b, tg, core.BackendRequest{Command: []string{"true"}})
	newTerm(s3).waitEOF(t, waitLimit)
	closeSession(t, s3)
}

func TestCloseHangsUpRunningShell(t *testing.T) {
	srv := newServer(t, sshtest.Config{Password: "pw"})
	b := newBackend(nil)
	s := spawn(t, b, targetFor(t, srv, "test", Auth{Password: "pw"}), core.BackendRequest{})
	tm := newTerm(s)
	tm.waitFor(t, `sshtest\$ `, waitLimit)
	tm.send(t, "sleep 61\r")
	waitDescendantRuns(t, "sleep\x0061\x00") // the shell runs it: a close now hangs up a running shell
	closeSession(t, s)
	select {
	case <-s.Exited():
	default:
		t.Fatal("Exited open after Close")
	}
	if st := s.ExitStatus(); !st.Exited() {
		t.Fatalf("status %+v", st)
	}
	tm.waitEOF(t, waitLimit)
	if _, err := s.Write(context.Background(), []byte("x")); err == nil {
		t.Fatal("write after close succeeded")
	}
}

// silentServer accepts TCP connections and never speaks SSH.
func silentServer(t *testing.T) string {
	return testenv.SilentListener(t, "tcp", "127.0.0.1:0")
}

func TestSpawnBoundedByContext(t *testing.T) {
	addr := silentServer(t)
	host, port, _ := net.SplitHostPort(addr)
	var p int
	for _, c := range port {
		p = p*10 + int(c-'0')
	}
	b := newBackend(nil)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	// The server never answers: only the context can end the spawn. A
	// spawn that ignored it would hang; waitLimit turns that into a
	// failure (the time it takes on a loaded machine is no promise).
	spawned := make(chan error, 1)
	go func() {
		_, err := b.Spawn(ctx, core.BackendRequest{Options: &Target{Host: host, Port: p, User: "x", Auth: Auth{Password: "pw"}}})
		spawned <- err
	}()
	var err error
	select {
	case err = <-spawned:
	case <-time.After(waitLimit):
		t.Fatalf("spawn against a silent server did not return within %v of its 300 ms context", waitLimit)
	}
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, core.ErrSpawnFailed) {
		t.Fatalf("err = %v", err)
	}
	// Bad options are INVALID_ARGUMENT.
	if _, err := b.Spawn(context.Background(), core.BackendRequest{Options: "nope"}); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("err = %v", err)
	}
	if _, err := b.Spawn(context.Background(), core.BackendRequest{Options: &Target{Host: "h"}}); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("err = %v", err)
	}
}

func TestWriteBoundedByContext(t *testing.T) {
	srv := newServer(t, sshtest.Config{Password: "pw"})
	b := newBackend(nil)
	// A program that never reads: writes fill the channel window.
	s := spawn(t, b, targetFor(t, srv, "test", Auth{Password: "pw"}), core.BackendRequest{Command: []string{"sleep", "60"}, Env: nil})
	defer closeSession(t, s)
	big := make([]byte, 1<<20)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	var err error
	for i := 0; i < 64 && err == nil; i++ {
		_, err = s.Write(ctx, big)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want deadline", err)
	}
}

func TestReadDeliversEverythingBeforeEOF(t *testing.T) {
	srv := newServer(t, sshtest.Config{Password: "pw"})
	b := newBackend(nil)
	s := spawn(t, b, targetFor(t, srv, "test", Auth{Password: "pw"}), core.BackendRequest{Command: []string{"sh", "-c", "seq 1 20000; echo END >&2; exit 4"}})
	defer closeSession(t, s)
	out, err := io.ReadAll(readerFunc(s.Read))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "\r\n19999\r\n20000\r\n") || !strings.HasSuffix(string(out), "END\r\n") {
		t.Fatalf("tail of output: %q", out[max(0, len(out)-100):])
	}
	if st := s.ExitStatus(); st.ExitCode != 4 {
		t.Fatalf("status %+v", st)
	}
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }
