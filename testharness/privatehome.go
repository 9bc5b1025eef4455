package testharness

import (
	"fmt"
	"os"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// ProcessDir returns a directory (mode 0700) of this test process's own
// in the temporary directory, which every process of the machine shares:
// prefix followed by "<pid>-<start time>", made on the first call for that
// prefix. [Cleanup] removes it; a process killed before its cleanup has
// its directories removed by the next process's first call.
func ProcessDir(prefix string) (string, error) {
	dir, err := testenv.ProcessDir(prefix)
	if err == nil {
		RemoveAtCleanup(dir)
	}
	return dir, err
}

// BuildDir returns a new directory (mode 0755, so that another user, an
// sshd test user, can run what is built there) for a binary the tests
// build, inside a ProcessDir: [Cleanup] removes it, and when the process
// is killed first (a test binary at its timeout runs no cleanup), the next
// test process sweeps it with the ProcessDir. Agents and servers built
// for the tests are 20 MB each, and the temporary directory is the
// machine's.
func BuildDir(prefix string) (string, error) {
	parent, err := ProcessDir("ptyseam-build-")
	if err != nil {
		return "", err
	}
	if err := os.Chmod(parent, 0o755); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(parent, prefix)
	if err != nil {
		return "", err
	}
	return dir, os.Chmod(dir, 0o755)
}

// mustPrivateHome gives the process a HOME and XDG base directories of its
// own (testenv.PrivateHome: the programs the tests start no longer read
// and write the user's, which every test process and the people on the
// machine share; the go command keeps its caches), which [Cleanup]
// removes. It ends the process when it fails.
func mustPrivateHome() {
	home, err := testenv.PrivateHome()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	RemoveAtCleanup(home)
}
