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
	registered.mu.Lock()
	defer registered.mu.Unlock()
	for _, d := range registered.dirs {
		if d == home {
			return
		}
	}
	t.Fatalf("the private HOME %s is not removed at the cleanup", home)
}
