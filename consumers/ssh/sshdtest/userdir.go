package sshdtest

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// The test user is one account for every test process of the machine:
// `go test ./...` runs the packages' test binaries at once, and each
// starts its own servers. What the sessions write under the user's home
// would be shared by all of them (the remote agent's cache, which one
// test emptied under another package's tests; the histories of the
// shells and REPLs the tests drive), so every server of a process gives
// its sessions a HOME of that process's own, with XDG_CACHE_HOME in it
// (ProcessHomeDir, ProcessCacheDir): its servers share it (a cache warmed
// by one test serves the next), other processes never see it, and it is
// removed when the process ends (testharness.Cleanup, which
// testharness.VerifyTestMain and RunMarked run) or, when the process was
// killed, by the next process that makes one. sshd still starts the
// sessions in the user's home directory (/home/ptyseam-test): only HOME
// moves.

var processHome struct {
	once sync.Once
	dir  string
	err  error
}

// ProcessHomeDir returns the directory that every server of this test
// process gives its sessions as HOME (see above), made on first use,
// owned by the test user and holding the login files of /etc/skel, as
// useradd -m gives a new user: a testenv.ProcessDir.
func ProcessHomeDir() (string, error) {
	processHome.once.Do(func() { processHome.dir, processHome.err = makeProcessHome() })
	return processHome.dir, processHome.err
}

func makeProcessHome() (string, error) {
	home, err := testenv.ProcessDir("ptyseam-sshd-home-")
	if err != nil {
		return "", err
	}
	skel, _ := os.ReadDir("/etc/skel")
	for _, e := range skel {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/etc/skel", e.Name()))
		if err != nil {
			return "", err
		}
		p := filepath.Join(home, e.Name())
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return "", err
		}
		if err := chownToUser(p); err != nil {
			return "", err
		}
	}
	cache := filepath.Join(home, ".cache")
	if err := os.Mkdir(cache, 0o700); err != nil {
		return "", err
	}
	for _, p := range []string{cache, home} {
		if err := chownToUser(p); err != nil {
			return "", err
		}
	}
	return home, nil
}

// ProcessCacheDir returns the directory that every server of this test
// process gives its sessions as XDG_CACHE_HOME (where the remote agent is
// cached): .cache in ProcessHomeDir.
func ProcessCacheDir() (string, error) {
	home, err := ProcessHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".cache"), nil
}

// chownToUser gives path to the test user.
func chownToUser(path string) error {
	u, err := user.Lookup(User)
	if err != nil {
		return err
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err := errors.Join(err1, err2); err != nil {
		return fmt.Errorf("the ids of %s: %w", User, err)
	}
	return os.Chown(path, uid, gid)
}

// UserDir returns a new directory (mode 0700) that the test user owns,
// removed with its contents when the test ends: for Options.Env, when a
// test needs state of its own on the server's side (a cache it empties,
// a HOME).
func UserDir(tb testing.TB) string {
	tb.Helper()
	Require(tb)
	if _, err := ensureUser(); err != nil {
		tb.Fatalf("consumers/ssh/sshdtest: %v", err)
	}
	dir, err := os.MkdirTemp("", "ptyseam-sshd-user-")
	if err != nil {
		tb.Fatalf("consumers/ssh/sshdtest: %v", err)
	}
	tb.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := chownToUser(dir); err != nil {
		tb.Fatalf("consumers/ssh/sshdtest: %v", err)
	}
	return dir
}
