package sshdtest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// cpuAccount is a cgroup holding sshd and everything it starts, whose
// CPU time the kernel counts: unlike the CPU a parent collects from the
// children it waits for, it keeps what a process orphaned by its exiting
// parent spent (an agent still shutting down when the connection's sshd
// exits). It is a cgroup v1 cpuacct group where that hierarchy is
// mounted, else a cgroup v2 group (cpu.stat is in every v2 group).
type cpuAccount struct {
	dir string
	v2  bool
}

// newCPUAccount makes a cgroup named name below this process's own.
func newCPUAccount(name string) (*cpuAccount, error) {
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, err
	}
	a := &cpuAccount{}
	if mount, ok := procfs.ParseMountinfoCgroup1(mi, "cpuacct"); ok {
		path, ok := procfs.ParseProcCgroup1(own, "cpuacct")
		if !ok {
			return nil, errors.New("no cpuacct entry in /proc/self/cgroup")
		}
		a.dir = filepath.Join(mount, filepath.Clean(path), name)
	} else if mount, ok := procfs.ParseMountinfoCgroup2(mi); ok {
		path, ok := procfs.ParseProcCgroup(own)
		if !ok {
			return nil, errors.New("no cgroup v2 entry in /proc/self/cgroup")
		}
		a.dir, a.v2 = filepath.Join(mount, filepath.Clean(path), name), true
	} else {
		return nil, errors.New("neither a cgroup v1 cpuacct hierarchy nor a cgroup v2 one is mounted")
	}
	if err := os.Mkdir(a.dir, 0o755); err != nil {
		return nil, err
	}
	return a, nil
}

// add moves pid into the group (its later children are born there).
func (a *cpuAccount) add(pid int) error {
	return os.WriteFile(filepath.Join(a.dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0)
}

// usage returns the CPU time the group's processes have used, the ended
// ones' included.
func (a *cpuAccount) usage() (time.Duration, error) {
	if !a.v2 {
		b, err := os.ReadFile(filepath.Join(a.dir, "cpuacct.usage"))
		if err != nil {
			return 0, err
		}
		ns, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("cpuacct.usage %q: %w", b, err)
		}
		return time.Duration(ns), nil
	}
	b, err := os.ReadFile(filepath.Join(a.dir, "cpu.stat"))
	if err != nil {
		return 0, err
	}
	for _, line := range bytes.Split(b, []byte{'\n'}) {
		if v, ok := bytes.CutPrefix(line, []byte("usage_usec ")); ok {
			us, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("cpu.stat usage_usec %q: %w", v, err)
			}
			return time.Duration(us) * time.Microsecond, nil
		}
	}
	return 0, fmt.Errorf("no usage_usec in %s", filepath.Join(a.dir, "cpu.stat"))
}

// remove deletes the group once its processes are gone (the caller has
// killed them), retrying while the kernel still lists exiting ones.
func (a *cpuAccount) remove() error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := syscall.Rmdir(a.dir)
		if err == nil || errors.Is(err, syscall.ENOENT) {
			return nil
		}
		if !errors.Is(err, syscall.EBUSY) || time.Now().After(deadline) {
			return fmt.Errorf("removing the cgroup %s: %w", a.dir, err)
		}
		time.Sleep(10 * time.Millisecond) // polling for the last exits
	}
}
