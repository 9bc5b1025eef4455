package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The first call of a process removes the directories of ended
// processes (a test binary killed at its timeout leaves its own) and
// keeps those of live ones and names it did not make.
func TestProcessDirsOfEndedProcessesAreSwept(t *testing.T) {
	tmp := t.TempDir()
	const prefix = "ptyseam-test-pd-"
	start := startTime(1)
	if start == 0 {
		t.Skip("no process start times here")
	}
	live := filepath.Join(tmp, fmt.Sprintf("%s1-%d", prefix, start))
	reused := filepath.Join(tmp, fmt.Sprintf("%s1-%d", prefix, start+1)) // pid 1, another start: ended
	gone := filepath.Join(tmp, prefix+"999999999-5")
	other := filepath.Join(tmp, prefix+"notes")
	for _, d := range []string{live, reused, gone, other} {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	sweepProcessDirs(tmp, prefix)
	for d, want := range map[string]bool{live: true, reused: false, gone: false, other: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}

// ProcessDir gives one directory per prefix, this process's.
func TestProcessDir(t *testing.T) {
	a, err := ProcessDir("ptyseam-test-pd-own-")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ProcessDir("ptyseam-test-pd-own-")
	if a != b || filepath.Dir(a) != filepath.Clean(os.TempDir()) {
		t.Fatalf("two calls gave %s and %s", a, b)
	}
	if st, err := os.Stat(a); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("%s: %v %v", a, st, err)
	}
	// A cleanup that was not the process's last removed it: made again.
	_ = os.RemoveAll(a)
	if c, err := ProcessDir("ptyseam-test-pd-own-"); err != nil || c != a {
		t.Fatalf("after a removal: %s %v, want %s again", c, err, a)
	}
	if _, err := os.Stat(a); err != nil {
		t.Fatal(err)
	}
	_ = os.RemoveAll(a)
	processDirs.mu.Lock()
	delete(processDirs.dirs, "ptyseam-test-pd-own-")
	processDirs.mu.Unlock()
}
