package dockertest

import (
	"os"
	"strings"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// mountPoints lists the mount points of /proc/self/mountinfo that
// satisfy match, in the file's order (none where the file cannot be
// read).
func mountPoints(match func(procfs.Mount) bool) []string {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	return procfs.MountPoints(b, match)
}

// mountsUnder lists the mount points at or below dir.
func mountsUnder(dir string) []string {
	return mountPoints(func(m procfs.Mount) bool { return m.Point == dir || strings.HasPrefix(m.Point, dir+"/") })
}

// cgroupRoots lists the mount points of the cgroup hierarchies (v1 and
// v2).
func cgroupRoots() []string {
	return mountPoints(func(m procfs.Mount) bool { return m.FSType == "cgroup" || m.FSType == "cgroup2" })
}
