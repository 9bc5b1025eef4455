package localpty

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// v1Leaves makes, for each controller in ctls that the session's cgroup
// v2 leaf cannot have, a leaf in that controller's cgroup v1 hierarchy (a
// hybrid host) under this process's own cgroup there, with sb's limit
// written. The launcher moves itself into them before it executes the
// program. It returns the leaves' directories; on error none is left.
func v1Leaves(sb *Sandbox, ctls []string) ([]string, error) {
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, err
	}
	var dirs []string
	fail := func(err error) ([]string, error) {
		for _, d := range dirs {
			_ = unix.Rmdir(d)
		}
		return nil, err
	}
	name := fmt.Sprintf("ptyseam-%d-%s", os.Getpid(), randomHex(6))
	for _, ctl := range ctls {
		mount, ok := procfs.ParseMountinfoCgroup1(mi, ctl)
		if !ok {
			return fail(fmt.Errorf("the %s controller is neither in the cgroup v2 parent nor in a cgroup v1 hierarchy", ctl))
		}
		path, ok := procfs.ParseProcCgroup1(own, ctl)
		if !ok {
			return fail(fmt.Errorf("no %s entry in /proc/self/cgroup", ctl))
		}
		dir := filepath.Join(mount, filepath.Clean(path), name)
		if err := unix.Mkdir(dir, 0o755); err != nil {
			return fail(&os.PathError{Op: "mkdir", Path: dir, Err: err})
		}
		dirs = append(dirs, dir)
		for _, f := range v1Limits(sb, ctl) {
			err := os.WriteFile(filepath.Join(dir, f[0]), []byte(f[1]), 0)
			if err != nil && !(f[0] == "memory.memsw.limit_in_bytes" && errors.Is(err, os.ErrNotExist)) {
				return fail(fmt.Errorf("setting %s in %s: %w", f[0], dir, err))
			}
		}
	}
	return dirs, nil
}

// v1Limits are the files that set sb's limit for ctl in a v1 hierarchy.
func v1Limits(sb *Sandbox, ctl string) [][2]string {
	switch ctl {
	case "pids":
		return [][2]string{{"pids.max", strconv.Itoa(sb.PidsMax)}}
	case "memory":
		v := strconv.FormatInt(sb.MemoryMax, 10)
		// memsw (memory + swap) at the same value: no swap, where swap
		// accounting exists.
		return [][2]string{{"memory.limit_in_bytes", v}, {"memory.memsw.limit_in_bytes", v}}
	case "cpu":
		const period = 100_000
		return [][2]string{{"cpu.cfs_period_us", strconv.Itoa(period)}, {"cpu.cfs_quota_us", strconv.FormatInt(max(int64(sb.CPUMax*period), 1000), 10)}}
	}
	return nil
}

// removeV1 removes v1 leaves once their processes are gone, retrying
// while the kernel still reports one busy, until ctx is done.
func removeV1(ctx context.Context, dirs []string) error {
	for _, d := range dirs {
		for {
			err := unix.Rmdir(d)
			if err == nil || errors.Is(err, unix.ENOENT) {
				break
			}
			if !errors.Is(err, unix.EBUSY) {
				return &os.PathError{Op: "rmdir", Path: d, Err: err}
			}
			if cerr := sleepCtx(ctx, 5*time.Millisecond); cerr != nil {
				return fmt.Errorf("rmdir %s: %w (after %w)", d, err, cerr)
			}
		}
	}
	return nil
}
