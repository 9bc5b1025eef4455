package sshdtest

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// The test user is one account for every test process of the machine:
// `go test ./...` runs the packages' test binaries at once, and each
// starts its own servers. What the sessions write under the user's home
// would be shared by all of them, so every server of a process points its
// sessions' XDG_CACHE_HOME (where ptyseam's remote agent caches its
// binary) at a directory of that process's own: its servers share it (a
// cache warmed by one test serves the next), other processes never see
// it, and it is gone with the process.

// cachePrefix begins the name of a process's cache directory in the
// temporary directory; the rest is "<pid>-<start time in clock ticks>".
const cachePrefix = "ptyseam-sshd-cache-"

var processCache struct {
	once sync.Once
	dir  string
	err  error
}

// ProcessCacheDir returns the directory that every server of this test
// process gives its sessions as XDG_CACHE_HOME (see the package
// documentation), creating it on first use. A process cannot remove it at
// its end (a test binary killed at its timeout runs no cleanup), so the
// first call of each process removes the directories of processes that
// have ended.
func ProcessCacheDir() (string, error) {
	processCache.once.Do(func() {
		processCache.dir, processCache.err = makeProcessCache(os.TempDir())
	})
	return processCache.dir, processCache.err
}

func makeProcessCache(tmp string) (string, error) {
	pid := os.Getpid()
	start, err := startTime(pid)
	if err != nil {
		return "", fmt.Errorf("this process's start time: %w", err)
	}
	sweepCaches(tmp)
	dir := filepath.Join(tmp, fmt.Sprintf("%s%d-%d", cachePrefix, pid, start))
	if err := os.RemoveAll(dir); err != nil { // a previous process's with our pid and start: none can be live
		return "", err
	}
	if err := mkdirForUser(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// startTime returns a process's start time (clock ticks since boot), which
// tells it from a later process that reuses its pid.
func startTime(pid int) (uint64, error) {
	b, err := os.ReadFile(procfs.Path(pid, "stat"))
	if err != nil {
		return 0, err
	}
	st, err := procfs.ParseStat(b)
	if err != nil {
		return 0, err
	}
	return st.StartTime, nil
}

// sweepCaches removes the cache directories in tmp whose process has
// ended: no process has its pid, or the process that has it started at
// another time.
func sweepCaches(tmp string) {
	dirs, _ := filepath.Glob(filepath.Join(tmp, cachePrefix+"*"))
	for _, dir := range dirs {
		pidText, startText, ok := strings.Cut(strings.TrimPrefix(filepath.Base(dir), cachePrefix), "-")
		if !ok {
			continue
		}
		pid, err1 := strconv.Atoi(pidText)
		start, err2 := strconv.ParseUint(startText, 10, 64)
		if err1 != nil || err2 != nil || pid <= 0 {
			continue
		}
		if now, err := startTime(pid); err == nil && now == start {
			continue // its process runs
		}
		_ = os.RemoveAll(dir)
	}
}

// mkdirForUser creates dir (mode 0700) and gives it to the test user.
func mkdirForUser(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil {
		return err
	}
	if err := chownToUser(dir); err != nil {
		_ = os.RemoveAll(dir)
		return err
	}
	return nil
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
