package localpty

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/core"
)

// landlockABI returns the kernel's Landlock ABI version (0: none).
func landlockABI() int {
	const createRulesetVersion = 1 << 0 // LANDLOCK_CREATE_RULESET_VERSION
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, createRulesetVersion)
	if errno != 0 {
		return 0
	}
	return int(v)
}

// checkSandbox refuses a sandbox the kernel cannot enforce, before
// anything starts.
func (b *Backend) checkSandbox(sb *Sandbox) error {
	if err := sb.validate(); err != nil {
		return err
	}
	if os.Geteuid() != 0 {
		return core.Errorf(core.CodeUnsupported, "a sandboxed session needs a server running as root: its private /dev, terminal file system and /proc are mounts in a mount namespace of its own, which need CAP_SYS_ADMIN; the session is refused")
	}
	if landlockABI() < 1 {
		return core.Errorf(core.CodeUnsupported, "this kernel has no Landlock (Linux 5.13+, enabled in the lsm= list): a sandboxed session cannot confine its files and is refused")
	}
	if sb.limited() && (b.opts.DisableCgroup || b.cg.disabled.Load()) {
		return core.Errorf(core.CodeUnsupported, "sandbox limits need the session's cgroup v2 leaf, and cgroups are unavailable to this backend: the session is refused")
	}
	return nil
}

// sandboxAttr adds the sandbox's namespaces to the program's start: a
// mount namespace, where the launcher mounts the session's own /dev,
// /dev/pts and /proc, and a network namespace unless sb.Network.
func sandboxAttr(sb *Sandbox, attr *syscall.SysProcAttr) {
	attr.Cloneflags |= syscall.CLONE_NEWNS
	if !sb.Network {
		attr.Cloneflags |= syscall.CLONE_NEWNET
	}
}

// limit writes sb's limits into the leaf before any process is in it,
// enabling the controllers in the parent first. It returns the
// controllers the parent does not have (a hybrid host keeps them in cgroup
// v1 hierarchies, see v1Leaves); any other failure is an error, and the
// caller refuses the session rather than run it without its limits.
func (c *cgroup) limit(sb *Sandbox) (missing []string, err error) {
	parent := filepath.Dir(c.path)
	avail, err := os.ReadFile(filepath.Join(parent, "cgroup.controllers"))
	if err != nil {
		return nil, err
	}
	have := strings.Fields(string(avail))
	for _, l := range v2Limits(sb) {
		if !contains(have, l.ctl) {
			missing = append(missing, l.ctl)
			continue
		}
		if err := os.WriteFile(filepath.Join(parent, "cgroup.subtree_control"), []byte("+"+l.ctl), 0); err != nil {
			return nil, fmt.Errorf("enabling the %s controller below %s: %w", l.ctl, parent, err)
		}
		for _, f := range l.files {
			if err := os.WriteFile(filepath.Join(c.path, f[0]), []byte(f[1]), 0); err != nil {
				if f[0] == "memory.swap.max" && errors.Is(err, os.ErrNotExist) {
					continue // a kernel without swap accounting has no swap to limit
				}
				return nil, fmt.Errorf("setting %s: %w", f[0], err)
			}
		}
	}
	return missing, nil
}

type v2Limit struct {
	ctl   string
	files [][2]string
}

// v2Limits are the controllers and files that set sb's limits in a
// cgroup v2 leaf.
func v2Limits(sb *Sandbox) []v2Limit {
	var ls []v2Limit
	if sb.PidsMax > 0 {
		ls = append(ls, v2Limit{"pids", [][2]string{{"pids.max", strconv.Itoa(sb.PidsMax)}}})
	}
	if sb.MemoryMax > 0 {
		ls = append(ls, v2Limit{"memory", [][2]string{{"memory.max", strconv.FormatInt(sb.MemoryMax, 10)}, {"memory.swap.max", "0"}}})
	}
	if sb.CPUMax > 0 {
		const period = 100_000
		ls = append(ls, v2Limit{"cpu", [][2]string{{"cpu.max", fmt.Sprintf("%d %d", max(int64(sb.CPUMax*period), 1000), period)}}})
	}
	return ls
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
