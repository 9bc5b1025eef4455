package localpty

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/procfs"
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
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if _, err := reapStaleLeaves(ctx, c.dir, log); err != nil {
				log.Error("localpty: leftovers of a dead process could not be killed", "error", err)
			}
			startGuard(c.dir, log)
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
	mount, ok := procfs.ParseMountinfoCgroup2(mi)
	if !ok {
		return "", errors.New("no cgroup2 mount")
	}
	cg, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	own, ok := procfs.ParseProcCgroup(cg)
	if !ok {
		return "", errors.New("no cgroup v2 entry in /proc/self/cgroup")
	}
	dir := filepath.Join(mount, filepath.Clean(own))
	if err := unix.Access(dir, unix.W_OK); err != nil {
		return "", fmt.Errorf("cgroup %s: %w", dir, err)
	}
	return dir, nil
}

// leafPrefix starts the name of every session leaf: ptyseam-PID.START-RAND,
// the owning process's pid and start time (clock ticks since boot), so
// that a later process can tell whether the owner still runs.
const leafPrefix = "ptyseam-"

// ownerTag is this process's "PID.START" in its leaves' names.
var ownerTag = sync.OnceValue(func() string {
	pid := os.Getpid()
	if st, err := procfs.ReadStat(pid, nil); err == nil {
		return fmt.Sprintf("%d.%d", pid, st.StartTime)
	}
	return fmt.Sprint(pid)
})

// ownerDead reports whether the process named by a leaf's owner tag
// ("PID.START", or "PID" in older leaves) is gone. A pid now used by
// another process (a different start time) counts as gone; a bare pid
// that is alive is taken for the owner.
func ownerDead(tag string) (dead, ok bool) {
	pidStr, startStr, hasStart := strings.Cut(tag, ".")
	pid, ok := procfs.ParsePID(pidStr)
	if !ok {
		return false, false
	}
	st, err := procfs.ReadStat(pid, nil)
	if err != nil {
		return true, true // no such process (a zombie's stat still reads)
	}
	if !hasStart {
		return false, true
	}
	start, err := strconv.ParseUint(startStr, 10, 64)
	if err != nil {
		return false, false
	}
	return st.StartTime != start, true
}

// staleLeafWait bounds how long reaping one stale leaf waits for it to
// empty after cgroup.kill.
const staleLeafWait = 2 * time.Second

// reapStaleLeaves kills the processes in leaves whose owning process is
// dead (it crashed or was SIGKILLed, so Close never ran) and removes the
// leaves. It returns the number of processes killed. A leaf of a live
// owner is never touched.
func reapStaleLeaves(ctx context.Context, dir string, log *slog.Logger) (int, error) {
	matches, _ := filepath.Glob(filepath.Join(dir, leafPrefix+"*-*"))
	killed := 0
	var errs []error
	for _, m := range matches {
		tag, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(m), leafPrefix), "-")
		if !ok || tag == ownerTag() {
			continue
		}
		if dead, ok := ownerDead(tag); !ok || !dead {
			continue
		}
		cg := &cgroup{path: m, fd: -1}
		procs := cg.procs()
		if len(procs) > 0 {
			if err := cg.kill(); err != nil {
				errs = append(errs, fmt.Errorf("killing stale cgroup %s: %w", m, err))
				continue
			}
			if empty, err := cg.waitEmpty(ctx, time.Now().Add(staleLeafWait)); err != nil || !empty {
				errs = append(errs, &core.CleanupError{Err: fmt.Errorf("stale cgroup %s did not empty: %v", m, err), Survivors: cg.procs()})
				continue
			}
			killed += len(procs)
			log.Warn("localpty: killed the processes of a dead server's session", "cgroup", m, "count", len(procs))
		}
		if err := cg.remove(); err == nil {
			log.Debug("localpty: removed a stale cgroup leaf", "path", m)
		}
	}
	return killed, errors.Join(errs...)
}

// ReapStaleCgroups ends what a previous process using this cgroup left
// behind when it died without closing its sessions (SIGKILL, a crash):
// every cgroup v2 session leaf whose owner is dead is killed and removed.
// It returns the number of processes killed. A server calls it at start;
// a backend also does it before its first session. Without usable cgroup
// v2 it does nothing and returns 0 and nil: such leftovers cannot be found
// (the parent-death signal of StartChild still kills each session's
// top-level process).
func ReapStaleCgroups(ctx context.Context, log *slog.Logger) (int, error) {
	if log == nil {
		log = slog.Default()
	}
	dir, err := findOwnCgroup()
	if err != nil {
		return 0, nil
	}
	return reapStaleLeaves(ctx, dir, log)
}

// cgroup is one session's leaf.
type cgroup struct {
	path string
	fd   int // open only until the program started
}

func newCgroup(parent string) (*cgroup, error) {
	path := filepath.Join(parent, leafPrefix+ownerTag()+"-"+randomHex(6))
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
	return procfs.ParsePIDList(b)
}

// populated reports whether any process is left in the leaf.
func (c *cgroup) populated() (bool, error) {
	b, err := os.ReadFile(filepath.Join(c.path, "cgroup.events"))
	if err != nil {
		return false, err
	}
	p, ok := procfs.ParseCgroupEvents(b)
	if !ok {
		return false, fmt.Errorf("%s/cgroup.events: %w", c.path, procfs.ErrParse)
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
