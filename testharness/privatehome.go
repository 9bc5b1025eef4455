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
func ProcessDir(prefix string) (string, error) { return testenv.ProcessDir(prefix) }

// BuildDir returns a new directory (mode 0755, so that another user, an
// sshd test user, can run what is built there) for a binary the tests
// build, inside a ProcessDir: [Cleanup] removes it, and the next test
// process sweeps it when this one is killed first.
func BuildDir(prefix string) (string, error) { return testenv.BuildDir(prefix) }

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
	testenv.RemoveAtCleanup(home)
}
