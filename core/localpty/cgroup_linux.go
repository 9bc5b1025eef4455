package localpty

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// cgroupState is a backend's view of cgroup v2: where its sessions' leaves
// go, found once, and whether cgroups turned out unusable.
type cgroupState struct {
	once     sync.Once
	dir      string
	err      error
	disabled atomic.Bool
}

// parent returns the directory the session leaves are made in: our own
// cgroup under the cgroup2 mount from /proc/self/mountinfo.
func (c *cgroupState) parent(log *slog.Logger) (string, error) {
	c.once.Do(func() {
		c.dir, c.err = findOwnCgroup()
		if c.err == nil {
			removeStaleLeaves(c.dir, log)
		}
	})
	return c.dir, c.err
}

func (c *cgroupState) disable(log *slog.Logger, err error) {
	if c.disabled.CompareAndSwap(false, true) {
		log.Info("localpty: cgroup v2 leaves unavailable; closing sessions by /proc scan", "err", err)
	}
}

func findOwnCgroup() (string, error) {
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	mount, ok := parseMountinfoCgroup2(mi)
	if !ok {
		return "", errors.New("no cgroup2 mount")
	}
	cg, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	own, ok := parseProcCgroup(cg)
	if !ok {
		return "", errors.New("no cgroup v2 entry in /proc/self/cgroup")
	}
	dir := filepath.Join(mount, filepath.Clean(own))
	if err := unix.Access(dir, unix.W_OK); err != nil {
		return "", fmt.Errorf("cgroup %s: %w", dir, err)
	}
	return dir, nil
}

// removeStaleLeaves removes empty leaves left by dead processes (a crash
// skips Close). A populated leaf cannot be removed, so this never loses
// track of a live session.
func removeStaleLeaves(dir string, log *slog.Logger) {
	matches, _ := filepath.Glob(filepath.Join(dir, "ptyseam-*-*"))
	for _, m := range matches {
		f := strings.SplitN(filepath.Base(m), "-", 3)
		pid, ok := parsePID(f[1])
		if !ok || pid == os.Getpid() {
			continue
		}
		if err := unix.Kill(pid, 0); !errors.Is(err, unix.ESRCH) {
			continue
		}
		if err := unix.Rmdir(m); err == nil {
			log.Debug("localpty: removed a stale cgroup leaf", "path", m)
		}
	}
}

// cgroup is one session's leaf.
type cgroup struct {
	path string
	fd   int // open only until the program started
}

func newCgroup(parent string) (*cgroup, error) {
	path := filepath.Join(parent, fmt.Sprintf("ptyseam-%d-%s", os.Getpid(), randomHex(6)))
	if err := unix.Mkdir(path, 0o755); err != nil {
		return nil, &os.PathError{Op: "mkdir", Path: path, Err: err}
	}
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		_ = unix.Rmdir(path)
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return &cgroup{path: path, fd: fd}, nil
}

func (c *cgroup) closeFD() {
	if c.fd >= 0 {
		_ = unix.Close(c.fd)
		c.fd = -1
	}
}

// procs lists the processes in the leaf.
func (c *cgroup) procs() []int {
	b, err := os.ReadFile(filepath.Join(c.path, "cgroup.procs"))
	if err != nil {
		return nil
	}
	return parsePIDList(b)
}

// populated reports whether any process is left in the leaf.
func (c *cgroup) populated() (bool, error) {
	b, err := os.ReadFile(filepath.Join(c.path, "cgroup.events"))
	if err != nil {
		return false, err
	}
	p, ok := parseCgroupEvents(b)
	if !ok {
		return false, fmt.Errorf("%s/cgroup.events: %w", c.path, errParse)
	}
	return p, nil
}

// signal sends sigs to every process in the leaf.
func (c *cgroup) signal(sigs ...unix.Signal) {
	for _, pid := range c.procs() {
		for _, sig := range sigs {
			_ = unix.Kill(pid, sig)
		}
	}
}

// kill kills every process in the leaf: cgroup.kill (Linux 5.14+), or
// SIGKILL to each member where that file is missing.
func (c *cgroup) kill() error {
	err := os.WriteFile(filepath.Join(c.path, "cgroup.kill"), []byte("1"), 0)
	if err == nil {
		return nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	c.signal(unix.SIGKILL)
	return nil
}

// waitEmpty polls cgroup.events until the leaf is empty, until is reached
// (returns false) or ctx is done (returns ctx's error).
func (c *cgroup) waitEmpty(ctx context.Context, until time.Time) (bool, error) {
	interval := time.Millisecond
	for {
		p, err := c.populated()
		if err != nil {
			return false, err
		}
		if !p {
			return true, nil
		}
		if !until.IsZero() && !time.Now().Before(until) {
			return false, nil
		}
		if err := sleepCtx(ctx, interval); err != nil {
			return false, err
		}
		interval = min(interval*2, 10*time.Millisecond)
	}
}

func (c *cgroup) remove() error {
	c.closeFD()
	if err := unix.Rmdir(c.path); err != nil && !errors.Is(err, unix.ENOENT) {
		return &os.PathError{Op: "rmdir", Path: c.path, Err: err}
	}
	return nil
}

// removeWait removes the leaf, retrying while the kernel still reports it
// busy, until ctx is done.
func (c *cgroup) removeWait(ctx context.Context) error {
	for {
		err := c.remove()
		if err == nil || !errors.Is(err, unix.EBUSY) {
			return err
		}
		if cerr := sleepCtx(ctx, 5*time.Millisecond); cerr != nil {
			return fmt.Errorf("%w (after %w)", err, cerr)
		}
	}
}
