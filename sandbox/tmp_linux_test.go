package sandbox

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestTmpPathsKeepWhatAnAncestorDoesNotShow(t *testing.T) {
	p := Policy{
		ReadOnly: []string{"/", "/tmp/ro", "/tmp/ro/deeper", "/tmp/rw/ro-inside", "/tmp/both", "/usr"},
		Writable: []string{"/tmp/rw/", "/tmp/ro/rw-inside", "/tmp/both", "/tmp/a-b", "/tmp/a/c", "/dev/null"},
	}
	want := []keptPath{{"/tmp/a-b", true}, {"/tmp/both", true}, {"/tmp/ro", false}, {"/tmp/rw", true}, {"/tmp/a/c", true}, {"/tmp/ro/rw-inside", true}}
	if got := pathsBelow("/tmp", p, "/work"); !slices.Equal(got, want) {
		t.Fatalf("pathsBelow:\n got %v\nwant %v", got, want)
	}
	want = append(want, keptPath{"/tmp/wd/x", false})
	slices.SortFunc(want, func(a, b keptPath) int {
		return cmp.Or(strings.Count(a.path, "/")-strings.Count(b.path, "/"), strings.Compare(a.path, b.path))
	})
	if got := pathsBelow("/tmp", p, "/tmp/wd/x"); !slices.Equal(got, want) {
		t.Fatalf("pathsBelow:\n got %v\nwant %v", got, want)
	}
}

func TestSessionHomeIsAnOrdinaryDirectory(t *testing.T) {
	base, err := os.MkdirTemp("/var/tmp", "ptyseam-homes-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	for _, d := range []string{"home", "ro-home", "shared/me", "a,b"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := Policy{ReadOnly: []string{"/", base + "/ro-home"}, Writable: []string{base + "/shared", "/dev/null"}}
	for home, want := range map[string]string{
		base + "/home": base + "/home", base + "/home/": base + "/home", "": "", "home": "", "/": "", base + "/no-such-dir": "",
		"/tmp": "", "/dev": "", "/dev/shm": "", "/proc": "", "/proc/self": "", "/sys": "",
		base + "/ro-home": "", base + "/shared": "", base + "/shared/me": "", base + "/a,b": "",
	} {
		if got := sessionHome(p, home); got != want {
			t.Errorf("sessionHome(%q) = %q, want %q", home, got, want)
		}
	}
}
