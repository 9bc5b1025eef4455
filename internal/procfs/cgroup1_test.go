package procfs

import (
	"strings"
	"testing"
)

const mountinfoHybrid = `30 24 0:26 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro,mode=755
31 30 0:27 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw
35 30 0:31 / /sys/fs/cgroup/memory rw,nosuid - cgroup cgroup rw,memory
36 30 0:32 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid - cgroup cgroup rw,cpu,cpuacct
37 30 0:33 / /sys/fs/cgroup/pids rw,nosuid - cgroup cgroup rw,pids
`

const procCgroupHybrid = `9:name=systemd:/
8:pids:/
4:memory:/process_api/x1
1:cpu,cpuacct:/a b
0::/
`

func TestParseCgroup1(t *testing.T) {
	for ctl, want := range map[string]string{"memory": "/sys/fs/cgroup/memory", "pids": "/sys/fs/cgroup/pids", "cpu": "/sys/fs/cgroup/cpu,cpuacct"} {
		if got, ok := ParseMountinfoCgroup1([]byte(mountinfoHybrid), ctl); !ok || got != want {
			t.Errorf("mount of %s: %q %v, want %q", ctl, got, ok, want)
		}
	}
	if _, ok := ParseMountinfoCgroup1([]byte(mountinfoHybrid), "hugetlb"); ok {
		t.Errorf("found a hierarchy for a controller that has none")
	}
	for ctl, want := range map[string]string{"memory": "/process_api/x1", "pids": "/", "cpu": "/a b"} {
		if got, ok := ParseProcCgroup1([]byte(procCgroupHybrid), ctl); !ok || got != want {
			t.Errorf("path of %s: %q %v, want %q", ctl, got, ok, want)
		}
	}
	if _, ok := ParseProcCgroup1([]byte(procCgroupHybrid), "cpuacc"); ok {
		t.Errorf("a prefix of a controller name matched")
	}
}

func FuzzParseCgroup1(f *testing.F) {
	f.Add([]byte(mountinfoHybrid), "memory")
	f.Add([]byte(procCgroupHybrid), "cpu")
	f.Fuzz(func(t *testing.T, b []byte, ctl string) {
		if mp, ok := ParseMountinfoCgroup1(b, ctl); ok && !strings.HasPrefix(mp, "/") {
			t.Fatalf("a relative mount point %q", mp)
		}
		if p, ok := ParseProcCgroup1(b, ctl); ok && !strings.HasPrefix(p, "/") {
			t.Fatalf("a relative cgroup path %q", p)
		}
	})
}
