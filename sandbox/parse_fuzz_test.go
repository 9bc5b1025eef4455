package sandbox

import (
	"slices"
	"strings"
	"testing"
)

func TestParseArgs(t *testing.T) {
	p, err := parseArgs([]string{"-ro", "/", "-rw", "/tmp/x", "-join", "/sys/fs/cgroup/pids/x/cgroup.procs", "-rw", "/dev/null", "-devpts", "3", "-tmp", "1048576", "-loopback", "--", "sh", "-c", "-ro"})
	if err != nil || p.Devpts != 3 || p.TmpBytes != 1<<20 || !p.Loopback || !slices.Equal(p.ReadOnly, []string{"/"}) || !slices.Equal(p.Writable, []string{"/tmp/x", "/dev/null"}) ||
		!slices.Equal(p.Join, []string{"/sys/fs/cgroup/pids/x/cgroup.procs"}) ||
		!slices.Equal(p.Argv, []string{"sh", "-c", "-ro"}) {
		t.Fatalf("%+v %v", p, err)
	}
	for _, bad := range [][]string{nil, {"--"}, {"-ro"}, {"-ro", "rel", "--", "sh"}, {"-x", "--", "sh"}, {"-rw", "", "--", "sh"}, {"--", ""}, {"-devpts", "2", "--", "sh"}, {"-devpts", "x", "--", "sh"}, {"-devpts"}, {"-tmp", "0", "--", "sh"}, {"-tmp", "-5", "--", "sh"}, {"-tmp", "1k", "--", "sh"}, {"-tmp"}} {
		if _, err := parseArgs(bad); err == nil {
			t.Errorf("parseArgs(%q) accepted", bad)
		}
	}
}

// FuzzParseArgs: whatever the arguments, the parser never panics, and a
// policy it accepts has absolute paths and a program.
func FuzzParseArgs(f *testing.F) {
	f.Add("-ro\x00/\x00-rw\x00/tmp\x00--\x00sh")
	f.Add("--\x00--\x00-ro")
	f.Add("-tmp\x001048576\x00-rw\x00/tmp/x\x00--\x00sh")
	f.Fuzz(func(t *testing.T, joined string) {
		p, err := parseArgs(strings.Split(joined, "\x00"))
		if err != nil {
			return
		}
		if len(p.Argv) == 0 || p.Argv[0] == "" {
			t.Fatalf("accepted without a program: %+v", p)
		}
		for _, path := range append(append(p.ReadOnly, p.Writable...), p.Join...) {
			if !strings.HasPrefix(path, "/") {
				t.Fatalf("accepted a relative path %q", path)
			}
		}
	})
}
