package dockertest

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

// ownerFile, in a daemon's directory, names the test process that owns
// it: "PID STARTTIME" (the process's start time in clock ticks after
// boot, from /proc/PID/stat, so that a reused pid is not taken for it).
const ownerFile = "owner"

// staleAge is how old a directory without an owner file and without a
// running dockerd must be before a sweep takes it for a leftover (one
// made by an older dockertest that is still starting its daemon is
// younger: starting is bounded by startTimeout).
const staleAge = startTimeout

// writeOwner records this process as dir's owner.
func writeOwner(dir string) error {
	st, err := procStart(os.Getpid())
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ownerFile), fmt.Appendf(nil, "%d %d\n", os.Getpid(), st), 0o644)
}

// procStat is pid's /proc/PID/stat.
func procStat(pid int) (procfs.Stat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procfs.Stat{}, err
	}
	return procfs.ParseStat(b)
}

// procStart is pid's start time in clock ticks after boot.
func procStart(pid int) (uint64, error) {
	st, err := procStat(pid)
	return st.StartTime, err
}

// procParent is pid's parent pid.
func procParent(pid int) (int, error) {
	st, err := procStat(pid)
	return st.PPID, err
}

// alive reports whether pid runs and started at start.
func alive(pid int, start uint64) bool {
	st, err := procStart(pid)
	return err == nil && st == start
}

// Sweep removes what test processes that died without stopping their
// daemon left behind (killed by the go test timeout, or by SIGKILL): for
// every daemon directory in /tmp whose owner process is gone, it kills
// the daemon, its containerd, its shims and the containers they ran,
// unmounts what is left under the directory and removes it. Start calls
// it; a daemon whose owner runs is left alone.
func Sweep() error {
	dirs, err := filepath.Glob(filepath.Join("/tmp", dirPrefix+"*"))
	if err != nil {
		return err
	}
	var errs []error
	// One sweep at a time on this host: test processes start daemons at
	// once.
	lock, err := os.OpenFile(filepath.Join("/tmp", "ptyseam-dockerd.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	for _, dir := range dirs {
		if !stale(dir) {
			continue
		}
		if err := sweepDir(dir); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// stale reports whether dir's owner is gone. Without an owner file (an
// older dockertest made it), the owner is dockerd's parent: a dockerd
// that runs under a live parent other than init is owned; with no
// dockerd, the directory is stale once older than staleAge.
func stale(dir string) bool {
	if b, err := os.ReadFile(filepath.Join(dir, ownerFile)); err == nil {
		var pid int
		var start uint64
		if _, err := fmt.Sscanf(string(b), "%d %d", &pid, &start); err == nil {
			return !alive(pid, start)
		}
	}
	for _, p := range dirProcs(dir) {
		if !p.dockerd {
			continue
		}
		ppid, err := procParent(p.pid)
		return err != nil || ppid <= 1 || !isTestProcess(ppid)
	}
	fi, err := os.Stat(dir)
	return err == nil && time.Since(fi.ModTime()) > staleAge
}

// isTestProcess reports whether pid is a Go test binary (a dockerd
// orphaned by its test's death is adopted by init or a subreaper).
func isTestProcess(pid int) bool {
	cmd, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return false
	}
	args := strings.Split(strings.TrimRight(string(cmd), "\x00"), "\x00")
	if strings.HasSuffix(args[0], ".test") {
		return true
	}
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-test.") {
			return true
		}
	}
	return false
}

// dirProc is a process whose command line names a daemon directory:
// dockerd, containerd, a shim or runc.
type dirProc struct {
	pid     int
	dockerd bool
	shim    bool
}

// dirProcs lists the processes whose arguments name dir.
func dirProcs(dir string) []dirProc {
	ents, _ := os.ReadDir("/proc")
	var out []dirProc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		args := bytes.Split(bytes.TrimRight(cmd, "\x00"), []byte{0})
		named := false
		for _, a := range args {
			if s := string(a); s == dir || strings.Contains(s, dir+"/") {
				named = true
				break
			}
		}
		if !named {
			continue
		}
		out = append(out, dirProc{pid: pid,
			dockerd: filepath.Base(string(args[0])) == "dockerd",
			shim:    strings.HasPrefix(filepath.Base(string(args[0])), "containerd-shim")})
	}
	return out
}

// children lists the pids whose parent is pid.
func children(pid int) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		c, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, err := procParent(c); err == nil && pp == pid {
			out = append(out, c)
		}
	}
	return out
}

// sweepWait bounds how long a sweep waits for the processes it killed to
// be gone.
const sweepWait = 30 * time.Second

// sweepDir ends everything dir's daemon started and removes dir.
func sweepDir(dir string) error {
	if err := killDaemonProcs(dir); err != nil {
		return err
	}
	removeCgroups(dir)
	if m := mountsUnder(dir); len(m) > 0 {
		for i := len(m) - 1; i >= 0; i-- {
			_ = detachMount(m[i])
		}
		if m := mountsUnder(dir); len(m) > 0 {
			return fmt.Errorf("dockertest: sweeping %s: mounts left, not removing it: %v", dir, m)
		}
	}
	return os.RemoveAll(dir)
}

// killDaemonProcs kills everything dir's daemon started and waits until
// it is gone: the containers (their shims' children: a container's
// init, whose death ends its whole PID namespace), then the shims,
// containerd and dockerd.
func killDaemonProcs(dir string) error {
	type victim struct {
		pid   int
		start uint64
	}
	var victims []victim
	add := func(pid int) {
		if st, err := procStart(pid); err == nil {
			victims = append(victims, victim{pid, st})
		}
	}
	procs := dirProcs(dir)
	// Stop the daemon first, so that it does not start or restart
	// anything while the rest is killed.
	for _, p := range procs {
		if p.dockerd {
			_ = syscall.Kill(p.pid, syscall.SIGSTOP)
		}
	}
	for _, p := range procs {
		if p.shim {
			for _, c := range children(p.pid) {
				add(c)
			}
		}
	}
	for _, pid := range containerProcs(dir) {
		add(pid)
	}
	for _, p := range procs {
		add(p.pid)
	}
	for _, v := range victims {
		_ = syscall.Kill(v.pid, syscall.SIGKILL)
	}
	deadline := time.Now().Add(sweepWait)
	for _, v := range victims {
		for alive(v.pid, v.start) {
			if time.Now().After(deadline) {
				return fmt.Errorf("dockertest: killing the daemon of %s: process %d survived SIGKILL", dir, v.pid)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	if left := dirProcs(dir); len(left) > 0 {
		return fmt.Errorf("dockertest: killing the daemon of %s: processes started while it was killed: %v", dir, left)
	}
	return nil
}

// removeCgroups removes the (now empty) cgroups of dir's containers that
// the engine made under its default parent, "docker", in each hierarchy.
func removeCgroups(dir string) {
	ents, _ := os.ReadDir(filepath.Join(dir, "data", "containers"))
	if len(ents) == 0 {
		return
	}
	roots := cgroupRoots()
	for _, e := range ents {
		for _, r := range roots {
			_ = os.Remove(filepath.Join(r, "docker", e.Name()))
		}
	}
}

// containerProcs lists the processes in the cgroups of dir's containers.
func containerProcs(dir string) []int {
	ents, _ := os.ReadDir(filepath.Join(dir, "data", "containers"))
	var out []int
	for _, r := range cgroupRoots() {
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(r, "docker", e.Name(), "cgroup.procs"))
			if err != nil {
				continue
			}
			for _, f := range strings.Fields(string(b)) {
				if pid, err := strconv.Atoi(f); err == nil {
					out = append(out, pid)
				}
			}
		}
	}
	return out
}
