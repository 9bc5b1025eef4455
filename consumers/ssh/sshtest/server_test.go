package sshtest_test

import (
	"bufio"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshtest"
	"github.com/ptyseam/ptyseam/internal/testenv"
	gossh "golang.org/x/crypto/ssh"
)

// waitLimit bounds every wait for behaviour in the tests (a hang guard,
// not a timing assertion): testenv.HangBound.
const waitLimit = testenv.HangBound

func dial(t *testing.T, srv *sshtest.Server, cfg *gossh.ClientConfig) (*gossh.Client, error) {
	t.Helper()
	cfg.HostKeyCallback = gossh.FixedHostKey(srv.HostKey())
	cfg.Timeout = 5 * time.Second
	return gossh.Dial("tcp", srv.Addr, cfg)
}

func TestAuthMethodsAndBanner(t *testing.T) {
	srv, err := sshtest.NewServer(sshtest.Config{User: "u", Password: "pw", Banner: "BANNER",
		Rounds: []sshtest.Round{{Questions: []sshtest.Question{{Prompt: "Q1: ", Answer: "a1"}, {Prompt: "Q2: ", Echo: true, Answer: "a2"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	var banner string
	c, err := dial(t, srv, &gossh.ClientConfig{User: "u", Auth: []gossh.AuthMethod{gossh.Password("pw")},
		BannerCallback: func(m string) error { banner = m; return nil }})
	if err != nil || banner != "BANNER" {
		t.Fatalf("password login: %v, banner %q", err, banner)
	}
	_ = c.Close()
	if _, err := dial(t, srv, &gossh.ClientConfig{User: "u", Auth: []gossh.AuthMethod{gossh.Password("bad")}}); err == nil {
		t.Fatal("wrong password accepted")
	}
	if _, err := dial(t, srv, &gossh.ClientConfig{User: "other", Auth: []gossh.AuthMethod{gossh.Password("pw")}}); err == nil {
		t.Fatal("wrong user accepted")
	}
	ki := func(answers ...string) gossh.AuthMethod {
		return gossh.KeyboardInteractive(func(name, instr string, qs []string, echos []bool) ([]string, error) {
			if len(qs) != 2 || echos[0] || !echos[1] {
				t.Errorf("questions %q %v", qs, echos)
			}
			return answers, nil
		})
	}
	c, err = dial(t, srv, &gossh.ClientConfig{User: "u", Auth: []gossh.AuthMethod{ki("a1", "a2")}})
	if err != nil {
		t.Fatalf("keyboard-interactive: %v", err)
	}
	_ = c.Close()
	if _, err := dial(t, srv, &gossh.ClientConfig{User: "u", Auth: []gossh.AuthMethod{ki("a1", "x")}}); err == nil {
		t.Fatal("wrong answer accepted")
	}
	if st := srv.Stats(); st.Connections != 2 {
		t.Fatalf("stats %+v", st)
	}
}

// TestStatsCountWhatTheClientWasToldOf checks Stats right after each Dial
// and NewSession returns: the server must have counted the connection and
// the session before confirming them (counting afterwards raced the client,
// and made TestAuthMethodsAndBanner flaky under load).
func TestStatsCountWhatTheClientWasToldOf(t *testing.T) {
	srv, err := sshtest.NewServer(sshtest.Config{User: "u", Password: "pw"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for i := 1; i <= 20; i++ {
		c, err := dial(t, srv, &gossh.ClientConfig{User: "u", Auth: []gossh.AuthMethod{gossh.Password("pw")}})
		if err != nil {
			t.Fatal(err)
		}
		st := srv.Stats()
		s, serr := c.NewSession()
		st2 := srv.Stats()
		if serr == nil {
			_ = s.Close()
		}
		_ = c.Close()
		if serr != nil {
			t.Fatalf("dial %d: new session: %v", i, serr)
		}
		if st.Connections != i || st2.Sessions != i {
			t.Fatalf("dial %d: stats after Dial %+v, after NewSession %+v; want %d and %d", i, st, st2, i, i)
		}
	}
}

func TestSessionRunsRealProgramAndDrops(t *testing.T) {
	srv, err := sshtest.NewServer(sshtest.Config{Password: "pw"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, err := dial(t, srv, &gossh.ClientConfig{User: "test", Auth: []gossh.AuthMethod{gossh.Password("pw")}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.CombinedOutput("echo $((1+2)); tty >/dev/null || echo no-tty; exit 3")
	var ee *gossh.ExitError
	if !strings.Contains(string(out), "3\nno-tty") || !errorsAs(err, &ee) || ee.ExitStatus() != 3 {
		t.Fatalf("output %q, err %v", out, err)
	}
	// With a PTY, and dropped mid-session.
	s, err = c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RequestPty("xterm", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	stdout, err := s.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start("tty; sleep 60"); err != nil {
		t.Fatal(err)
	}
	// Drop once the program runs on its PTY (tty printed its name), not
	// after a fixed pause that a loaded machine may not honour.
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- l
	}()
	select {
	case l := <-line:
		if !strings.Contains(l, "/dev/pts/") {
			t.Fatalf("no PTY: %q", l)
		}
	case <-time.After(waitLimit):
		t.Fatal("tty printed nothing")
	}
	srv.DropConnections()
	done := make(chan error, 1)
	go func() { done <- s.Wait() }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("session survived the drop")
		}
	case <-time.After(waitLimit):
		t.Fatal("session did not end after DropConnections")
	}
}

func errorsAs(err error, target **gossh.ExitError) bool {
	e, ok := err.(*gossh.ExitError)
	if ok {
		*target = e
	}
	return ok
}
