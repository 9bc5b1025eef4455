package sshdtest

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"strconv"
	"sync"
	"testing"

	"github.com/ptyseam/ptyseam/testharness"
)

// The test user is one account for every test process of the machine:
// `go test ./...` runs the packages' test binaries at once, and each
// starts its own servers. What the sessions write under the user's home
// would be shared by all of them, so every server of a process points its
// sessions' XDG_CACHE_HOME (where ptyseam's remote agent caches its
// binary) at a directory of that process's own: its servers share it (a
// cache warmed by one test serves the next), other processes never see
// it, and it is removed when the process ends (testharness.Cleanup, which
// testharness.VerifyTestMain and RunMarked run) or, when the process was
// killed, by the next process that makes one.

var processCache struct {
	once sync.Once
	dir  string
	err  error
}

// ProcessCacheDir returns the directory that every server of this test
// process gives its sessions as XDG_CACHE_HOME (see above), made on first
// use and owned by the test user: a testharness.ProcessDir, which
// testharness.Cleanup removes and the next process sweeps if this one is
// killed first.
func ProcessCacheDir() (string, error) {
	processCache.once.Do(func() {
		dir, err := testharness.ProcessDir("ptyseam-sshd-cache-")
		if err == nil {
			err = chownToUser(dir)
		}
		processCache.dir, processCache.err = dir, err
	})
	return processCache.dir, processCache.err
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
