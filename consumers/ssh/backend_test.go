package ssh

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"encoding/pem"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshtest"
	"github.com/ptyseam/ptyseam/core"
)

func TestPasswordShellEchoAndExit(t *testing.T) {
	srv := newServer(t, sshtest.Config{User: "alice", Password: "s3cret-pw", Banner: "Welcome to sshtest\n"})
	b := newBackend(nil)
	s := spawn(t, b, targetFor(t, srv, "alice", Auth{Password: "s3cret-pw"}), core.BackendRequest{})
	tm := newTerm(s)
	tm.waitFor(t, `Welcome to sshtest\r\n`, waitLimit)
	tm.waitFor(t, `sshtest\$ `, waitLimit)
	if got := s.ExitStatus(); got.Exited() {
		t.Fatalf("status %v before exit", got)
	}
	if s.PID() != 0 {
		t.Fatalf("PID %d, want 0", s.PID())
	}
	tm.send(t, "echo hel''lo; exit 7\r")
	tm.waitFor(t, `hello\r\n`, waitLimit)
	tm.waitEOF(t, waitLimit)
	select {
	case <-s.Exited():
	default:
		t.Fatal("EOF before Exited")
	}
	if got := s.ExitStatus(); got.Kind != core.StatusExited || got.ExitCode != 7 {
		t.Fatalf("status %+v, want exited 7", got)
	}
	closeSession(t, s)
	closeSession(t, s) // idempotent
	if n := len(b.Connections()); n != 0 {
		t.Fatalf("%d connections left after the last session closed", n)
	}
}

func TestCommandArgvExitCodeAndSignalExit(t *testing.T) {
	srv := newServer(t, sshtest.Config{Password: "pw"})
	b := newBackend(nil)
	tg := targetFor(t, srv, "test", Auth{Password: "pw"})
	s := spawn(t, b, tg, core.BackendRequest{Command: []string{"sh", "-c", `printf '%s|' "$1" "$2"; exit 3`, "x", "a b", "it's"}})
	tm := newTerm(s)
	tm.waitEOF(t, waitLimit)
	if !strings.Contains(tm.String(), "a b|it's|") {
		t.Fatalf("argv not preserved: %q", tm.String())
	}
	if st := s.ExitStatus(); st.ExitCode != 3 || !st.Exited() {
		t.Fatalf("status %+v", st)
	}
	closeSession(t, s)

	s = spawn(t, b, tg, core.BackendRequest{Command: []string{"sh", "-c", "kill -TERM $$"}})
	tm = newTerm(s)
	tm.waitEOF(t, waitLimit)
	if st := s.ExitStatus(); st.Signal != "SIGTERM" || st.ExitCode != -1 {
		t.Fatalf("status %+v, want SIGTERM", st)
	}
	closeSession(t, s)
}

func TestKeyboardInteractiveRounds(t *testing.T) {
	srv := newServer(t, sshtest.Config{Rounds: []sshtest.Round{
		{Instruction: "first", Questions: []sshtest.Question{{Prompt: "Password: ", Answer: "pw"}, {Prompt: "Code: ", Echo: true, Answer: "123456"}}},
		{Instruction: "second", Questions: []sshtest.Question{{Prompt: "Pet: ", Echo: true, Answer: "cat"}}},
	}})
	b := newBackend(nil)
	var seen []Challenge
	ki := func(ctx context.Context, c Challenge) ([]string, error) {
		seen = append(seen, c)
		var ans []string
		for _, q := range c.Questions {
			switch q.Prompt {
			case "Password: ":
				ans = append(ans, "pw")
			case "Code: ":
				ans = append(ans, "123456")
			case "Pet: ":
				ans = append(ans, "cat")
			}
		}
		return ans, nil
	}
	s := spawn(t, b, targetFor(t, srv, "test", Auth{KeyboardInteractive: ki}), core.BackendRequest{Command: []string{"true"}})
	newTerm(s).waitEOF(t, waitLimit)
	closeSession(t, s)
	if len(seen) != 2 || seen[0].Round != 1 || seen[1].Round != 2 || len(seen[0].Questions) != 2 ||
		seen[0].Questions[0].Echo || !seen[0].Questions[1].Echo || seen[1].Instruction != "second" {
		t.Fatalf("challenges: %+v", seen)
	}
}

func TestPasswordThroughKeyboardInteractiveOnly(t *testing.T) {
	srv := newServer(t, sshtest.Config{Password: "kipw", PasswordOnlyKeyboardInteractive: true})
	b := newBackend(nil)
	s := spawn(t, b, targetFor(t, srv, "test", Auth{Password: "kipw"}), core.BackendRequest{Command: []string{"true"}})
	newTerm(s).waitEOF(t, waitLimit)
	closeSession(t, s)

	_, err := b.Spawn(context.Background(), core.BackendRequest{Options: targetFor(t, srv, "test", Auth{Password: "wrong"})})
	var ae *AuthError
	if !errors.As(err, &ae) || !errors.Is(err, ErrAuth) || !errors.Is(err, core.ErrSpawnFailed) {
		t.Fatalf("err = %v, want AuthError", err)
	}
}

func TestPublicKeyFileWithPassphrase(t *testing.T) {
	// ssh-keygen with one KDF round: the default 16 rounds take seconds
	// under the race detector.
	priv := filepath.Join(t.TempDir(), "id_ed25519")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-a", "1", "-N", "key-passphrase", "-C", "", "-f", priv).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v %s", err, out)
	}
	pubText, err := os.ReadFile(priv + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	pub, _, _, _, err := gossh.ParseAuthorizedKey(pubText)
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, sshtest.Config{AuthorizedKeys: []gossh.PublicKey{pub}})
	b := newBackend(nil)
	asked := 0
	auth := Auth{KeyFiles: []string{priv}, Passphrase: func(ctx context.Context, file string) ([]byte, error) {
		asked++
		return []byte("key-passphrase"), nil
	}}
	s := spawn(t, b, targetFor(t, srv, "test", auth), core.BackendRequest{Command: []string{"true"}})
	newTerm(s).waitEOF(t, waitLimit)
	closeSession(t, s)
	if asked != 1 {
		t.Fatalf("passphrase asked %d times", asked)
	}
	// Without the passphrase callback the key cannot be used.
	if _, err := b.Spawn(context.Background(), core.BackendRequest{Options: targetFor(t, srv, "test", Auth{KeyFiles: []string{priv}})}); err == nil {
		t.Fatal("encrypted key used without a passphrase")
	}
	// A key the server does not know is an authentication failure.
	_, otherKey := newKeyPair(t)
	other := writeKey(t, otherKey, "")
	_, err = b.Spawn(context.Background(), core.BackendRequest{Options: targetFor(t, srv, "test", Auth{KeyFiles: []string{other}})})
	var ae *AuthError
	if !errors.As(err, &ae) || len(ae.Tried) != 1 || ae.Tried[0] != "publickey" || len(ae.Offered) != 0 {
		t.Fatalf("err = %v, want AuthError after publickey", err)
	}
}

func writeKey(t *testing.T, key ed25519.PrivateKey, passphrase string) string {
	t.Helper()
	if passphrase == "" {
		return writeKeyTB(t, key, t.TempDir())
	}
	var blk *pem.Block
	var err error
	if passphrase == "" {
		blk, err = gossh.MarshalPrivateKey(key, "")
	} else {
		blk, err = gossh.MarshalPrivateKeyWithPassphrase(key, "", []byte(passphrase))
	}
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(p, pem.EncodeToMemory(blk), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func writeKeyTB(tb testing.TB, key ed25519.PrivateKey, dir string) string {
	tb.Helper()
	blk, err := gossh.MarshalPrivateKey(key, "")
	if err != nil {
		tb.Fatal(err)
	}
	p := filepath.Join(dir, "id_ed25519")
	if err := os.WriteFile(p, pem.EncodeToMemory(blk), 0o600); err != nil {
		tb.Fatal(err)
	}
	return p
}

func writeKnownFor(t *testing.T, file, host string, port int, key gossh.PublicKey) {
	t.Helper()
	line := knownhosts.Line([]string{net.JoinHostPort(host, strconv.Itoa(port))}, key)
	if err := os.WriteFile(file, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func newRSASigner(t *testing.T) gossh.Signer {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestWrongPasswordIsTypedAndSecretFree(t *testing.T) {
	srv := newServer(t, sshtest.Config{Password: "right-pw"})
	logs := &logBuffer{}
	b := newBackend(logs)
	const secret = "wr0ng-Secret-XYZ"
	_, err := b.Spawn(context.Background(), core.BackendRequest{Options: targetFor(t, srv, "test", Auth{Password: secret})})
	var ae *AuthError
	if !errors.As(err, &ae) || !errors.Is(err, ErrAuth) {
		t.Fatalf("err = %v, want AuthError", err)
	}
	// One refused try, no retry (with the same password or a new dial):
	// counted at the server, not timed.
	if n := srv.Stats().FailedPasswords; n != 1 {
		t.Fatalf("the server refused %d password attempts, want 1 (no retry)", n)
	}
	if strings.Contains(err.Error(), secret) || strings.Contains(logs.String(), secret) {
		t.Fatalf("secret leaked: err=%v logs=%s", err, logs.String())
	}
	if !strings.Contains(logs.String(), "ssh login failed") {
		t.Fatalf("no log of the failure: %s", logs.String())
	}
	// A good login logs too, without the password.
	s := spawn(t, b, targetFor(t, srv, "test", Auth{Password: "right-pw"}), core.BackendRequest{Command: []string{"true"}})
	newTerm(s).waitEOF(t, waitLimit)
	closeSession(t, s)
	if strings.Contains(logs.String(), "right-pw") || !strings.Contains(logs.String(), "ssh connected") {
		t.Fatalf("logs: %s", logs.String())
	}
}

func TestUnknownHostChangedKeyAndTOFU(t *testing.T) {
	srv := newServer(t, sshtest.Config{Password: "pw"})
	b := newBackend(nil)
	dir := t.TempDir()
	kh := filepath.Join(dir, "sub", "known_hosts")
	tg := &Target{Host: srv.Host(), Port: srv.Port(), User: "test", Auth: Auth{Password: "pw"},
		HostKeys: HostKeyPolicy{KnownHostsFiles: []string{kh}}}

	_, err := b.Spawn(context.Background(), core.BackendRequest{Options: tg})
	var uh *UnknownHostError
	if !errors.As(err, &uh) || !errors.Is(err, ErrUnknownHost) {
		t.Fatalf("err = %v, want UnknownHostError", err)
	}
	if want := gossh.FingerprintSHA256(srv.HostKey()); uh.Fingerprint != want {
		t.Fatalf("fingerprint %q, want %q", uh.Fingerprint, want)
	}
	if _, err := os.Stat(kh); !os.IsNotExist(err) {
		t.Fatal("known_hosts written without AcceptNew")
	}

	tg.HostKeys.AcceptNew = true
	s := spawn(t, b, tg, core.BackendRequest{Command: []string{"true"}})
	newTerm(s).waitEOF(t, waitLimit)
	closeSession(t, s)
	data, err := os.ReadFile(kh)
	if err != nil || !strings.Contains(string(data), strings.TrimSpace(string(gossh.MarshalAuthorizedKey(srv.HostKey())))) {
		t.Fatalf("known_hosts after TOFU: %q, %v", data, err)
	}

	// Strict again: the recorded key is accepted.
	tg.HostKeys.AcceptNew = false
	s = spawn(t, b, tg, core.BackendRequest{Command: []string{"true"}})
	newTerm(s).waitEOF(t, waitLimit)
	closeSession(t, s)

	// A server with another key on the same address is a changed key,
	// even with AcceptNew.
	srv2 := newServer(t, sshtest.Config{Password: "pw"})
	tg2 := *tg
	tg2.Port = srv2.Port()
	writeKnownFor(t, kh, srv2.Host(), srv2.Port(), srv.HostKey())
	tg2.HostKeys.AcceptNew = true
	_, err = b.Spawn(context.Background(), core.BackendRequest{Options: &tg2})
	var hc *HostKeyChangedError
	if !errors.As(err, &hc) || !errors.Is(err, ErrHostKeyChanged) || len(hc.Known) != 1 {
		t.Fatalf("err = %v, want HostKeyChangedError", err)
	}
	if hc.Fingerprint != gossh.FingerprintSHA256(srv2.HostKey()) || hc.Known[0].Fingerprint != gossh.FingerprintSHA256(srv.HostKey()) {
		t.Fatalf("fingerprints: %+v", hc)
	}
}

func TestHostKeyAlgorithmFromKnownHosts(t *testing.T) {
	// A server with two host keys: known_hosts lists only the RSA one, so
	// the client must ask for RSA rather than report a mismatch.
	ed := newSigner(t)
	rsaSigner := newRSASigner(t)
	srv := newServer(t, sshtest.Config{Password: "pw", HostKey: ed, ExtraHostKeys: []gossh.Signer{rsaSigner}})
	kh := filepath.Join(t.TempDir(), "known_hosts")
	writeKnownFor(t, kh, srv.Host(), srv.Port(), rsaSigner.PublicKey())
	b := newBackend(nil)
	tg := &Target{Host: srv.Host(), Port: srv.Port(), User: "test", Auth: Auth{Password: "pw"}, HostKeys: HostKeyPolicy{KnownHostsFiles: []string{kh}}}
	s := spawn(t, b, tg, core.BackendRequest{Command: []string{"true"}})
	newTerm(s).waitEOF(t, waitLimit)
	closeSession(t, s)
}
