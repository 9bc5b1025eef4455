package ssh

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	gossh "golang.org/x/crypto/ssh"
)

// Integration tests against a real OpenSSH sshd.

func sshdTarget(t *testing.T, srv *sshdtest.Server, auth Auth) *Target {
	t.Helper()
	kh := filepath.Join(t.TempDir(), "known_hosts")
	if err := srv.WriteKnownHosts(kh); err != nil {
		t.Fatal(err)
	}
	return &Target{Host: srv.Host, Port: srv.Port, User: srv.User, Auth: auth,
		HostKeys: HostKeyPolicy{KnownHostsFiles: []string{kh}}}
}

func TestSSHDPasswordShellBannerExitCode(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{Banner: "Authorized use only\n"})
	logs := &logBuffer{}
	b := newBackend(logs)
	tg := sshdTarget(t, srv, Auth{Password: srv.Password})
	s := spawn(t, b, tg, core.BackendRequest{})
	tm := newTerm(s)
	tm.waitFor(t, `^Authorized use only\r\n`, waitLimit)
	tm.waitFor(t, `[$] $`, waitLimit)
	tm.send(t, "echo sum=$((20+22)); whoami\r")
	tm.waitFor(t, `sum=42\r\n`+sshdtest.User, waitLimit)

	// A command session on the same connection, with its exit code.
	c := spawn(t, b, tg, core.BackendRequest{Command: []string{"sh", "-c", "echo from-cmd; exit 42"}})
	ct := newTerm(c)
	ct.waitEOF(t, waitLimit)
	if st := c.ExitStatus(); st.ExitCode != 42 || !strings.Contains(ct.String(), "from-cmd") {
		t.Fatalf("status %+v output %q", st, ct.String())
	}
	if strings.Contains(ct.String(), "Authorized use only") {
		t.Fatal("banner repeated on the second session")
	}
	if conns := b.Connections(); len(conns) != 1 || !strings.Contains(conns[0].ServerVersion, "OpenSSH") || conns[0].Banner != "Authorized use only\n" {
		t.Fatalf("connections %+v", conns)
	}
	closeSession(t, c)

	tm.send(t, "exit 5\r")
	tm.waitEOF(t, waitLimit)
	if st := s.ExitStatus(); st.ExitCode != 5 {
		t.Fatalf("shell status %+v", st)
	}
	closeSession(t, s)
	if strings.Contains(logs.String(), srv.Password) {
		t.Fatal("password in logs")
	}
}

func TestSSHDKeyboardInteractiveThroughPAM(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{NoPassword: true, KeyboardInteractive: true})
	b := newBackend(nil)
	// The password answers PAM's question without a callback...
	s := spawn(t, b, sshdTarget(t, srv, Auth{Password: srv.Password}), core.BackendRequest{Command: []string{"true"}})
	newTerm(s).waitEOF(t, waitLimit)
	closeSession(t, s)
	// ...and a callback sees the question.
	var prompts []string
	ki := func(ctx context.Context, c Challenge) ([]string, error) {
		var ans []string
		for _, q := range c.Questions {
			prompts = append(prompts, q.Prompt)
			ans = append(ans, srv.Password)
		}
		return ans, nil
	}
	s = spawn(t, b, sshdTarget(t, srv, Auth{KeyboardInteractive: ki}), core.BackendRequest{Command: []string{"true"}})
	newTerm(s).waitEOF(t, waitLimit)
	closeSession(t, s)
	if len(prompts) == 0 || !strings.Contains(prompts[0], "assword") {
		t.Fatalf("prompts %q", prompts)
	}
}

func TestSSHDPublicKey(t *testing.T) {
	signer, key := newKeyPair(t)
	srv := sshdtest.Start(t, sshdtest.Options{NoPassword: true, AuthorizedKeys: []gossh.PublicKey{signer.PublicKey()}})
	b := newBackend(nil)
	s := spawn(t, b, sshdTarget(t, srv, Auth{KeyFiles: []string{writeKey(t, key, "")}}), core.BackendRequest{Command: []string{"id", "-un"}})
	tm := newTerm(s)
	tm.waitEOF(t, waitLimit)
	closeSession(t, s)
	if !strings.Contains(tm.String(), sshdtest.User) {
		t.Fatalf("output %q", tm.String())
	}
}

func TestSSHDWrongPasswordUnknownHostChangedKey(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	logs := &logBuffer{}
	b := newBackend(logs)
	const secret = "Not-The-Password-93"
	_, err := b.Spawn(context.Background(), core.BackendRequest{Options: sshdTarget(t, srv, Auth{Password: secret})})
	var ae *AuthError
	if !errors.As(err, &ae) || !errors.Is(err, ErrAuth) {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), secret) || strings.Contains(logs.String(), secret) || strings.Contains(srv.Logs(), secret) {
		t.Fatal("secret leaked into an error or a log")
	}

	// Unknown host: empty known_hosts.
	tg := sshdTarget(t, srv, Auth{Password: srv.Password})
	empty := filepath.Join(t.TempDir(), "known_hosts")
	tg.HostKeys.KnownHostsFiles = []string{empty}
	_, err = b.Spawn(context.Background(), core.BackendRequest{Options: tg})
	var uh *UnknownHostError
	if !errors.As(err, &uh) || uh.Fingerprint != gossh.FingerprintSHA256(srv.HostKey) {
		t.Fatalf("err = %v", err)
	}

	// Changed key: known_hosts holds another ed25519 key for the address.
	other := newSigner(t)
	writeKnownFor(t, empty, srv.Host, srv.Port, other.PublicKey())
	tg.HostKeys.AcceptNew = true
	_, err = b.Spawn(context.Background(), core.BackendRequest{Options: tg})
	var hc *HostKeyChangedError
	if !errors.As(err, &hc) || hc.Fingerprint != gossh.FingerprintSHA256(srv.HostKey) {
		t.Fatalf("err = %v", err)
	}
	if data, _ := os.ReadFile(empty); strings.Count(string(data), "\n") != 1 {
		t.Fatalf("known_hosts changed: %q", data)
	}
}

func TestSSHDWindowChangeSignalsEnv(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{AcceptEnv: []string{"LC_PTYSEAM"}})
	b := newBackend(nil)
	tg := sshdTarget(t, srv, Auth{Password: srv.Password})
	s := spawn(t, b, tg, core.BackendRequest{Size: core.Size{Rows: 30, Cols: 90}})
	defer closeSession(t, s)
	tm := newTerm(s)
	tm.waitFor(t, `[$] $`, waitLimit)
	tm.send(t, "stty size\r")
	tm.waitFor(t, `30 90\r\n`, waitLimit)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := s.Resize(ctx, core.Size{Rows: 48, Cols: 120}); err != nil {
		t.Fatal(err)
	}
	// No wait: the window change and the next input travel in order on
	// the channel, and sshd sets the terminal's size before it writes
	// what follows to it.
	tm.send(t, "stty size\r")
	tm.waitFor(t, `48 120\r\n`, waitLimit)

	// SIGINT reaches a foreground job through the PTY: once it runs (a
	// Ctrl-C at the prompt would set $? to 130 too).
	tm.send(t, "sleep 100\r")
	waitRemoteRuns(t, srv, "sleep\x00100\x00")
	if res, err := s.Signal(ctx, core.SignalRequest{Signal: core.SIGINT}); err != nil || res.Method != "tty-char" {
		t.Fatalf("signal %+v %v", res, err)
	}
	tm.send(t, "echo rc=$?\r")
	tm.waitFor(t, `rc=130`, waitLimit)

	// A command session gets SIGTERM as an SSH signal request.
	c := spawn(t, b, tg, core.BackendRequest{Command: []string{"sh", "-c", "echo up; exec sleep 100"}})
	ct := newTerm(c)
	ct.waitFor(t, "up", waitLimit)
	if res, err := c.Signal(ctx, core.SignalRequest{Signal: core.SIGTERM}); err != nil || res.Method != "ssh-signal" {
		t.Fatalf("signal %+v %v", res, err)
	}
	ct.waitEOF(t, waitLimit)
	if st := c.ExitStatus(); st.Signal != "SIGTERM" {
		t.Fatalf("status %+v", st)
	}
	closeSession(t, c)

	// Env: accepted by AcceptEnv, or exported when refused.
	e := spawn(t, b, tg, core.BackendRequest{Command: []string{"sh", "-c", `echo "[$LC_PTYSEAM][$OTHER_VAR]"`},
		Env: []string{"LC_PTYSEAM=accepted", "OTHER_VAR=it's exported"}})
	et := newTerm(e)
	et.waitEOF(t, waitLimit)
	closeSession(t, e)
	if !strings.Contains(et.String(), "[accepted][it's exported]") {
		t.Fatalf("env output %q", et.String())
	}
}

// TestSSHDConnectionDropped kills the server under two sessions: both
// end with "connection lost". Keepalives are off, so only the connection's
// end (the kernel closes the dead server's sockets) can have ended them:
// that is what makes the end prompt, not a timer, and the test waits for
// it with the hang bound instead of timing it (a wall-clock limit also
// timed the harness's kill and reap of sshd on a loaded machine).
func TestSSHDConnectionDropped(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	b := newBackend(nil)
	tg := sshdTarget(t, srv, Auth{Password: srv.Password})
	tg.KeepaliveInterval = -1
	s1 := spawn(t, b, tg, core.BackendRequest{})
	s2 := spawn(t, b, tg, core.BackendRequest{Command: []string{"sleep", "100"}})
	t1, t2 := newTerm(s1), newTerm(s2)
	t1.waitFor(t, `[$] $`, waitLimit)
	t1.send(t, "sleep 100\r")
	srv.Kill()
	for i, tm := range []*term{t1, t2} {
		tm.waitEOF(t, waitLimit)
		if st := tm.s.ExitStatus(); !st.Exited() || st.Reason != "connection lost" {
			t.Fatalf("session %d: %+v", i, st)
		}
		cause := core.ProberOf(tm.s).ExitCause()
		if !errors.Is(cause, ErrConnectionLost) || strings.Contains(cause.Error(), "keepalive") {
			t.Fatalf("session %d ended by %v, want the connection's end", i, cause)
		}
	}
	closeSession(t, s1)
	closeSession(t, s2)
}

func TestSSHDCloseEndsRemoteProcesses(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	b := newBackend(nil)
	s := spawn(t, b, sshdTarget(t, srv, Auth{Password: srv.Password}), core.BackendRequest{})
	tm := newTerm(s)
	tm.waitFor(t, `[$] $`, waitLimit)
	tm.send(t, "sleep 100 & sleep 200\r")
	waitRemoteRuns(t, srv, "sleep\x00100\x00")
	waitRemoteRuns(t, srv, "sleep\x00200\x00")
	before := len(srv.Remaining())
	closeSession(t, s)
	if st := s.ExitStatus(); !st.Exited() {
		t.Fatalf("status %+v", st)
	}
	// Only the listener remains once the connection is closed.
	deadline := time.Now().Add(waitLimit)
	for len(srv.Remaining()) > 1 {
		if time.Now().After(deadline) {
			t.Fatalf("remote processes left after close: %v (had %d)", srv.Remaining(), before)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSSHDCloseDoesNotWaitOutRefusedSignals closes a shell whose command
// ignores SIGINT: where sshd refuses the signal requests (OpenSSH does for
// a root login), Close does not wait out a grace for each one
// (it took twice CloseGrace) but closes the channel, whose hangup ends the
// remote processes; where it delivers them, the hangup ends the shell.
func TestSSHDCloseDoesNotWaitOutRefusedSignals(t *testing.T) {
	signer, key := newKeyPair(t)
	srv := sshdtest.Start(t, sshdtest.Options{Root: true, AuthorizedKeys: []gossh.PublicKey{signer.PublicKey()}})
	b := newBackend(nil)
	tg := sshdTarget(t, srv, Auth{KeyFiles: []string{writeKey(t, key, "")}})
	tg.CloseGrace = 20 * time.Second
	s := spawn(t, b, tg, core.BackendRequest{})
	tm := newTerm(s)
	tm.waitFor(t, `[#] $`, waitLimit)
	tm.send(t, "trap '' INT; sleep 300\r")
	waitRemoteRuns(t, srv, "sleep\x00300\x00")
	// A refused signal says which ones travel and how to end the job.
	if _, err := s.Signal(context.Background(), core.SignalRequest{Signal: core.SIGTERM}); core.CodeOf(err) != core.CodeUnsupported || !strings.Contains(err.Error(), "kill -TERM %1") {
		t.Fatalf("SIGTERM on a root login: %v, want UNSUPPORTED saying how to end the job", err)
	}
	start := time.Now()
	closeSession(t, s)
	if took := time.Since(start); took >= tg.CloseGrace {
		t.Fatalf("Close took %v, a grace (%v) or more for signals the server refused", took, tg.CloseGrace)
	}
	deadline := time.Now().Add(waitLimit)
	for len(srv.Remaining()) > 1 {
		if time.Now().After(deadline) {
			t.Fatalf("remote processes left after close: %v", srv.Remaining())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
