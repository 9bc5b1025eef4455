package sshdtest

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/internal/procscan"
	"github.com/ptyseam/ptyseam/internal/testenv"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// SSHD is the server binary.
const SSHD = "/usr/sbin/sshd"

const markerVar = "PTYSEAM_SSHD_MARKER"

// Options configure the server. The zero value offers password and public
// key authentication.
type Options struct {
	// NoPassword turns PasswordAuthentication off.
	NoPassword bool
	// KeyboardInteractive turns KbdInteractiveAuthentication on (through
	// PAM, which asks "Password: ").
	KeyboardInteractive bool
	// Banner is sent before authentication (the Banner option).
	Banner string
	// AuthorizedKeys may log in as the test user with public key auth.
	AuthorizedKeys []gossh.PublicKey
	// AcceptEnv lists variable names the server accepts from "env"
	// requests.
	AcceptEnv []string
	// HostKeyType is the type of the server's one host key: "ed25519"
	// (the default) or "ecdsa" (ECDSA P-256).
	HostKeyType string
	// MaxSessions limits the sessions of one connection (sshd's
	// MaxSessions; 64 when zero, OpenSSH's own default is 10).
	MaxSessions int
	// AccountCPU runs sshd in a cgroup of its own, so that CPU can say
	// what it and everything it started used (a benchmark's far side).
	AccountCPU bool
	// Env lists "NAME=VALUE" pairs that every session gets (sshd's
	// SetEnv, which overrides what sshd sets itself). A name given here
	// wins over the server's own HOME and XDG_CACHE_HOME (see
	// ProcessHomeDir); values cannot hold blanks or quotes.
	Env []string
	// Root lets root log in with a key of AuthorizedKeys (and sets
	// Server.User to "root"), as a container's or a lab machine's sshd
	// often does. sshd runs a root login without its privilege-separated
	// child, so it refuses "signal" requests on it.
	Root bool
	// ExtraConfig is appended to sshd_config verbatim. sshd keeps the
	// first value of a keyword, so it cannot override the options above.
	ExtraConfig string
}

// Server is a running sshd.
type Server struct {
	// Addr is "127.0.0.1:PORT".
	Addr string
	// Host is "127.0.0.1".
	Host string
	// Port is the listening port.
	Port int
	// User is the test user; Password its password.
	User, Password string
	// HostKey is the server's public host key.
	HostKey gossh.PublicKey
	// Dir is the private directory holding the configuration.
	Dir string

	marker    string
	home      string      // the sessions' HOME, see ProcessHomeDir
	acct      *cpuAccount // with Options.AccountCPU
	finalLogs string
	cmd       *exec.Cmd
	waited    chan struct{}
	once      sync.Once
}

// Require skips the test (or fails it when $CI is set) unless sshd can
// run here: the binary exists and the process is root.
func Require(tb testing.TB) {
	tb.Helper()
	fail := tb.Skipf
	if os.Getenv("CI") != "" {
		fail = tb.Fatalf
	}
	if _, err := os.Stat(SSHD); err != nil {
		fail("consumers/ssh/sshdtest: %s is not installed (apt-get install openssh-server): %v", SSHD, err)
	}
	if os.Geteuid() != 0 {
		fail("consumers/ssh/sshdtest: sshd tests need root (to run sshd and create the user %s)", User)
	}
}

// Start starts sshd for the test and stops it (and everything it started)
// when the test ends.
func Start(tb testing.TB, opts Options) *Server {
	tb.Helper()
	Require(tb)
	s, err := start(opts, freePort)
	if err != nil {
		tb.Fatalf("consumers/ssh/sshdtest: %v", err)
	}
	tb.Cleanup(func() {
		s.Close()
		if tb.Failed() {
			tb.Logf("sshd log:\n%s", s.Logs())
		}
	})
	return s
}

// start starts sshd on a port that pickPort gives (freePort).
func start(opts Options, pickPort func() (int, error)) (*Server, error) {
	pw, err := ensureUser()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
		return nil, err
	}
	for _, kv := range opts.Env {
		if name, _, ok := strings.Cut(kv, "="); !ok || name == "" || strings.ContainsAny(kv, " \t\n\"'\\") {
			return nil, fmt.Errorf("Options.Env: %q is not NAME=VALUE without blanks or quotes", kv)
		}
	}
	home, err := ProcessHomeDir()
	if err != nil {
		return nil, fmt.Errorf("the sessions' HOME: %w", err)
	}
	// In a directory of the process's own, which the next process sweeps
	// if this one is killed before Close removes the server's.
	servers, err := testenv.ProcessDir("ptyseam-sshd-servers-")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(servers, "sshd-")
	if err != nil {
		return nil, err
	}
	// The test user must be able to read authorized_keys.
	for _, d := range []string{servers, dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			return nil, err
		}
	}
	s := &Server{Host: "127.0.0.1", User: User, Password: pw, Dir: dir, home: home}
	if opts.Root {
		s.User = "root"
	}
	if err := s.writeFiles(opts); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	if opts.AccountCPU {
		if s.acct, err = newCPUAccount("ptyseam-sshd-" + s.marker); err != nil {
			_ = os.RemoveAll(dir)
			return nil, fmt.Errorf("a cgroup to account sshd's CPU: %w", err)
		}
	}
	// Another attempt, on another port, only when sshd exited at start
	// (the picked port was taken meanwhile); a hung start or a bad
	// configuration fails at once.
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		if lastErr = s.run(opts, pickPort); lastErr == nil {
			return s, nil
		}
		if !errors.Is(lastErr, errExitedAtStart) {
			break
		}
	}
	_ = os.RemoveAll(dir)
	if s.acct != nil {
		_ = s.acct.remove()
	}
	return nil, lastErr
}

func (s *Server) writeFiles(opts Options) (err error) {
	var priv crypto.Signer
	switch opts.HostKeyType {
	case "", "ed25519":
		_, priv, err = ed25519.GenerateKey(rand.Reader)
	case "ecdsa":
		priv, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	default:
		err = fmt.Errorf("unknown host key type %q", opts.HostKeyType)
	}
	if err != nil {
		return err
	}
	blk, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(s.Dir, "host_key"), pem.EncodeToMemory(blk), 0o600); err != nil {
		return err
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return err
	}
	s.HostKey = signer.PublicKey()
	var ak bytes.Buffer
	for _, k := range opts.AuthorizedKeys {
		ak.Write(gossh.MarshalAuthorizedKey(k))
	}
	if err := os.WriteFile(filepath.Join(s.Dir, "authorized_keys"), ak.Bytes(), 0o644); err != nil {
		return err
	}
	if opts.Banner != "" {
		if err := os.WriteFile(filepath.Join(s.Dir, "banner"), []byte(opts.Banner), 0o644); err != nil {
			return err
		}
	}
	m := make([]byte, 12)
	if _, err := rand.Read(m); err != nil {
		return err
	}
	s.marker = hex.EncodeToString(m)
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func (s *Server) config(opts Options, port int) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("Port %d", port)
	w("ListenAddress 127.0.0.1")
	w("HostKey %s", filepath.Join(s.Dir, "host_key"))
	w("PidFile %s", filepath.Join(s.Dir, "sshd.pid"))
	w("AuthorizedKeysFile %s", filepath.Join(s.Dir, "authorized_keys"))
	w("StrictModes no")
	w("UsePAM yes")
	w("PasswordAuthentication %s", yesNo(!opts.NoPassword))
	w("KbdInteractiveAuthentication %s", yesNo(opts.KeyboardInteractive))
	w("PubkeyAuthentication yes")
	if opts.Root {
		w("PermitRootLogin prohibit-password")
		w("AllowUsers %s root", User)
	} else {
		w("PermitRootLogin no")
		w("AllowUsers %s", User)
	}
	w("PrintMotd no")
	w("MaxStartups 64:30:128")
	maxSessions := opts.MaxSessions
	if maxSessions <= 0 {
		maxSessions = 64
	}
	w("MaxSessions %d", maxSessions)
	// One SetEnv line (sshd ignores a second), where the first value of
	// a name wins: the marker, the test's own, then the server's.
	w("SetEnv %s", strings.Join(append(append([]string{markerVar + "=" + s.marker}, opts.Env...),
		"HOME="+s.home, "XDG_CACHE_HOME="+filepath.Join(s.home, ".cache")), " "))
	if len(opts.AcceptEnv) > 0 {
		w("AcceptEnv %s", strings.Join(opts.AcceptEnv, " "))
	}
	if opts.Banner != "" {
		w("Banner %s", filepath.Join(s.Dir, "banner"))
	}
	b.WriteString(opts.ExtraConfig)
	return b.String()
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func (s *Server) run(opts Options, pickPort func() (int, error)) error {
	port, err := pickPort()
	if err != nil {
		return err
	}
	cfgPath := filepath.Join(s.Dir, "sshd_config")
	if err := os.WriteFile(cfgPath, []byte(s.config(opts, port)), 0o600); err != nil {
		return err
	}
	if out, err := exec.Command(SSHD, "-t", "-f", cfgPath).CombinedOutput(); err != nil {
		return fmt.Errorf("sshd -t: %v: %s", err, out)
	}
	logPath := filepath.Join(s.Dir, "sshd.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer logFile.Close()
	logStart, err := logFile.Seek(0, io.SeekEnd) // this attempt's lines follow
	if err != nil {
		return err
	}
	cmd := exec.Command(SSHD, "-D", "-e", "-f", cfgPath)
	cmd.Env = append(os.Environ(), markerVar+"="+s.marker)
	// A file, not a pipe: Wait must not wait for children holding it.
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	s.cmd = cmd
	if s.acct != nil {
		// Before it accepts a connection: what it starts is born there.
		if err := s.acct.add(cmd.Process.Pid); err != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			_ = cmd.Wait()
			return fmt.Errorf("moving sshd into its cgroup: %w", err)
		}
	}
	s.waited = make(chan struct{})
	s.once = sync.Once{}
	go func() {
		_ = cmd.Wait()
		close(s.waited)
	}()
	s.Port = port
	s.Addr = net.JoinHostPort(s.Host, strconv.Itoa(port))
	// The port was free when it was picked; another process may have
	// bound it since, and a greeting on it may be another server's. Only
	// our sshd's own word that it listens counts: it logs it once its
	// listen succeeded, and exits when the bind fails (then start picks
	// another port).
	listening := []byte(fmt.Sprintf("Server listening on %s port %d.", s.Host, port))
	deadline := time.Now().Add(startLimit)
	for {
		select {
		case <-s.waited:
			return fmt.Errorf("%w: %s", errExitedAtStart, s.Logs())
		default:
		}
		if b, err := os.ReadFile(logPath); err == nil && int64(len(b)) > logStart && bytes.Contains(b[logStart:], listening) {
			return nil
		}
		if time.Now().After(deadline) {
			s.kill(false)
			return fmt.Errorf("sshd did not say it listens within %v: %s", startLimit, s.Logs())
		}
		time.Sleep(10 * time.Millisecond) // polling its log file
	}
}

// errExitedAtStart is the end of an sshd that exited before it said it
// listens: the bind of the picked port failed, or the configuration.
var errExitedAtStart = errors.New("sshd exited at start")

// startLimit bounds sshd's start (a hang guard: it takes milliseconds on
// a quiet machine).
const startLimit = 60 * time.Second

// KnownHostsLine returns the known_hosts line that trusts the server.
func (s *Server) KnownHostsLine() string {
	return knownhosts.Line([]string{s.Addr}, s.HostKey)
}

// WriteKnownHosts writes a known_hosts file that trusts the server.
func (s *Server) WriteKnownHosts(path string) error {
	return os.WriteFile(path, []byte(s.KnownHostsLine()+"\n"), 0o600)
}

// Logs returns what sshd logged so far.
func (s *Server) Logs() string {
	if s.finalLogs != "" {
		return s.finalLogs
	}
	b, _ := os.ReadFile(filepath.Join(s.Dir, "sshd.log"))
	return string(b)
}

// Kill kills sshd and everything it started at once (SIGKILL), as a
// crash of the server would. It returns when they are gone.
func (s *Server) Kill() { s.kill(true) }

func (s *Server) kill(wait bool) {
	s.killTree(0)
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	if wait {
		select {
		case <-s.waited:
		case <-time.After(10 * time.Second):
		}
	}
}

// killTree kills every process carrying the marker or descending from
// sshd, except keep.
func (s *Server) killTree(keep int) {
	procscan.KillAll(markerVar+"="+s.marker, s.cmd.Process.Pid, keep)
}

// Remaining lists processes that the server started and that are still
// alive (none after Close).
func (s *Server) Remaining() []int {
	return procscan.Find(markerVar+"="+s.marker, s.cmd.Process.Pid)
}

// Close kills the server and everything it started, and removes its files.
func (s *Server) Close() {
	s.once.Do(func() {
		s.kill(true)
		if s.acct != nil {
			if err := s.acct.remove(); err != nil {
				fmt.Fprintf(os.Stderr, "consumers/ssh/sshdtest: %v\n", err)
			}
		}
		s.finalLogs = s.Logs()
		_ = os.RemoveAll(s.Dir)
	})
}
