package sshdtest

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// dial connects to s as the test user (password, s's host key); the
// connection is closed when the test ends.
func dial(t *testing.T, s *Server) *gossh.Client {
	t.Helper()
	c, err := gossh.Dial("tcp", s.Addr, &gossh.ClientConfig{
		User:            s.User,
		Auth:            []gossh.AuthMethod{gossh.Password(s.Password)},
		HostKeyCallback: gossh.FixedHostKey(s.HostKey),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// run runs command as the test user on s and returns its output.
func run(t *testing.T, s *Server, command string) string {
	t.Helper()
	c := dial(t, s)
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	out, err := sess.CombinedOutput(command)
	if err != nil {
		t.Fatalf("%s: %v: %s", command, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestSessionsCachePerProcess: what a session caches goes to a
// directory of this test process's own, shared by its servers, not to
// the test user's ~/.cache that every test process of the machine would
// share (where one test emptying the agent cache pulled it from under
// another package's tests); Options.Env overrides it.
func TestSessionsCachePerProcess(t *testing.T) {
	a := Start(t, Options{})
	b := Start(t, Options{})
	const where = `printf %s "${XDG_CACHE_HOME:-$HOME/.cache}"`
	dir := run(t, a, where)
	u, err := user.Lookup(User)
	if err != nil {
		t.Fatal(err)
	}
	if dir == "" || strings.HasPrefix(dir+"/", u.HomeDir+"/") {
		t.Fatalf("the sessions cache in %q, in the test user's home %s that every test process shares", dir, u.HomeDir)
	}
	if other := run(t, b, where); other != dir {
		t.Fatalf("two servers of one process cache in %q and %q", dir, other)
	}
	name := fmt.Sprintf("written-by-%d", os.Getpid())
	run(t, a, `touch "$XDG_CACHE_HOME/`+name+`"`)
	if got := run(t, b, `ls "$XDG_CACHE_HOME"`); got != name {
		t.Fatalf("the other server's sessions list %q", got)
	}
	if want, _ := ProcessCacheDir(); dir != want {
		t.Fatalf("the sessions cache in %q, want ProcessCacheDir %q", dir, want)
	}

	own := UserDir(t)
	c := Start(t, Options{Env: []string{"XDG_CACHE_HOME=" + own, "PTYSEAM_EXTRA=1"}})
	if got := run(t, c, where+`; printf " %s" "$PTYSEAM_EXTRA"; touch "$XDG_CACHE_HOME/x"`); got != own+" 1" {
		t.Fatalf("with Options.Env the session sees %q, want %q", got, own+" 1")
	}
	if _, err := os.Stat(filepath.Join(own, "x")); err != nil {
		t.Fatalf("the session could not write in UserDir: %v", err)
	}
}

// TestSessionsHomePerProcess: the sessions' HOME is the test process's
// own too, with the login files a new user gets, so the shells and REPLs
// the tests run on the far side keep their histories there, not in the
// one home of the test user that every test process shares.
func TestSessionsHomePerProcess(t *testing.T) {
	s := Start(t, Options{})
	u, err := user.Lookup(User)
	if err != nil {
		t.Fatal(err)
	}
	home := run(t, s, `printf %s "$HOME"`)
	if home == "" || strings.HasPrefix(home+"/", u.HomeDir+"/") {
		t.Fatalf("the sessions' HOME is %q, the test user's home %s that every test process shares", home, u.HomeDir)
	}
	if got := run(t, s, `test -f ~/.bashrc && test -f ~/.profile && echo 6*7 | python3 -i -q >/dev/null 2>&1; ls -A ~`); !strings.Contains(got, ".python_history") || !strings.Contains(got, ".bashrc") {
		t.Fatalf("the private HOME holds %q", got)
	}
}
