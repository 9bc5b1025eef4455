package testharness

import (
	"os"
	"os/user"
	"path/filepath"
	"testing"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// The tests of a package whose TestMain is VerifyTestMain or RunMarked run
// with a HOME of the process's own, which the cleanup removes.
func TestTheTestsRunWithAPrivateHome(t *testing.T) {
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	home := os.Getenv("HOME")
	if want, _ := testenv.PrivateHome(); home != want || filepath.Clean(home) == filepath.Clean(u.HomeDir) {
		t.Fatalf("HOME=%q, want the private %q (the user's is %s)", home, want, u.HomeDir)
	}
	if !testenv.WillRemove(home) {
		t.Fatalf("the private HOME %s is not removed at the cleanup", home)
	}
}

// A BuildDir is readable by every user (an sshd test user runs what is
// built there), inside this process's ProcessDir, which the cleanup
// removes.
func TestBuildDir(t *testing.T) {
	dir, err := BuildDir("test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	parent, _ := ProcessDir("ptyseam-build-")
	if filepath.Dir(dir) != parent {
		t.Fatalf("%s is not in the process's %s", dir, parent)
	}
	for _, d := range []string{dir, parent} {
		if st, err := os.Stat(d); err != nil || st.Mode().Perm() != 0o755 {
			t.Fatalf("%s: %v %v, want mode 0755", d, st, err)
		}
	}
	if !testenv.WillRemove(parent) {
		t.Fatalf("%s is not removed at the cleanup", parent)
	}
}
