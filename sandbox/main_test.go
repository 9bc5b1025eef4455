package sandbox_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/ptyseam/ptyseam/sandbox"
	"github.com/ptyseam/ptyseam/testharness"
)

// TestMain serves the launcher when the test binary is started as one
// (the sessions of these tests use it), and otherwise runs the tests,
// checking for leaked goroutines and processes.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandbox.Command {
		err := sandbox.Exec(os.Args[2:])
		fmt.Fprintln(os.Stderr, "sandbox:", err)
		os.Exit(126)
	}
	testharness.RunMarked(m)
}
