package procfs

import (
	"bytes"
	"strings"
)

// ParseMountinfoCgroup1 returns where the cgroup v1 hierarchy holding
// controller ctl is mounted, from /proc/self/mountinfo: a "cgroup" file
// system whose super options name ctl.
func ParseMountinfoCgroup1(b []byte, ctl string) (string, bool) {
	return ParseMountinfo(b, func(fstype, superOptions string) bool {
		return fstype == "cgroup" && hasOption(superOptions, ctl)
	})
}

// ParseProcCgroup1 returns this process's path in the cgroup v1
// hierarchy holding ctl, from /proc/self/cgroup ("4:memory:/a/b").
func ParseProcCgroup1(b []byte, ctl string) (string, bool) {
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte{'\n'})
		_, rest, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			continue
		}
		ctls, path, ok := bytes.Cut(rest, []byte{':'})
		if !ok || len(ctls) == 0 || !hasOption(string(ctls), ctl) {
			continue
		}
		if len(path) == 0 || path[0] != '/' {
			return "", false
		}
		return string(path), true
	}
	return "", false
}

// hasOption reports whether the comma-separated list opts holds opt.
func hasOption(opts, opt string) bool {
	for _, o := range strings.Split(opts, ",") {
		if o == opt {
			return true
		}
	}
	return false
}
