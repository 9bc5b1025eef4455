package procfs

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

const mountinfoSample = `22 27 0:21 / /proc rw,relatime - proc proc rw
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
50 27 0:40 / /tmp/d/a\040b rw shared:9 - overlay overlay rw,lowerdir=/x
51 27 0:41 / /tmp/d rw - tmpfs tmpfs rw
52 27 0:42 / /tmp/dd rw - tmpfs tmpfs rw
no separator here
53 27 0:43 / relative rw - tmpfs tmpfs rw
54 27 / - tmpfs tmpfs rw
`

// Mounts reads every well-formed line, with its escapes undone, and
// MountPoints filters them: the cgroup hierarchies, the mounts at or
// below a directory (not a sibling sharing its prefix).
func TestMounts(t *testing.T) {
	var got []Mount
	for m := range Mounts([]byte(mountinfoSample)) {
		got = append(got, m)
	}
	want := []Mount{
		{"/proc", "proc", "rw"},
		{"/sys/fs/cgroup", "tmpfs", "rw,mode=755"},
		{"/sys/fs/cgroup/cpu", "cgroup", "rw,cpu"},
		{"/sys/fs/cgroup/unified", "cgroup2", "rw"},
		{"/tmp/d/a b", "overlay", "rw,lowerdir=/x"},
		{"/tmp/d", "tmpfs", "rw"},
		{"/tmp/dd", "tmpfs", "rw"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Mounts:\n got %q\nwant %q", got, want)
	}
	cgroups := MountPoints([]byte(mountinfoSample), func(m Mount) bool { return m.FSType == "cgroup" || m.FSType == "cgroup2" })
	if want := []string{"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/unified"}; !slices.Equal(cgroups, want) {
		t.Fatalf("cgroup mount points %q, want %q", cgroups, want)
	}
	under := MountPoints([]byte(mountinfoSample), func(m Mount) bool { return m.Point == "/tmp/d" || strings.HasPrefix(m.Point, "/tmp/d/") })
	if want := []string{"/tmp/d/a b", "/tmp/d"}; !slices.Equal(under, want) {
		t.Fatalf("mount points under /tmp/d %q, want %q", under, want)
	}
}

// FuzzMounts: every mount yielded has an absolute mount point and a file
// system type found in the input, there are no more mounts than lines,
// and ParseMountinfo finds the first mount MountPoints lists for the
// same match.
func FuzzMounts(f *testing.F) {
	f.Add([]byte(mountinfoSample))
	f.Add([]byte("41 31 0:38 / /mnt/with\\040space rw - cgroup2 cgroup2 rw\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		n := 0
		for m := range Mounts(b) {
			n++
			if m.Point == "" || m.Point[0] != '/' {
				t.Fatalf("mount point %q", m.Point)
			}
			if m.FSType == "" || !bytes.Contains(b, []byte(m.FSType)) {
				t.Fatalf("file system type %q not in the input", m.FSType)
			}
		}
		if lines := bytes.Count(b, []byte{'\n'}) + 1; n > lines {
			t.Fatalf("%d mounts from %d lines", n, lines)
		}
		match := func(m Mount) bool { return strings.HasPrefix(m.FSType, "c") }
		all := MountPoints(b, match)
		first, ok := ParseMountinfo(b, func(fstype, opts string) bool { return match(Mount{FSType: fstype, SuperOptions: opts}) })
		if ok != (len(all) > 0) || (ok && first != all[0]) {
			t.Fatalf("ParseMountinfo %q, %v; MountPoints %q", first, ok, all)
		}
	})
}
