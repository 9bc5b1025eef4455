package docker

import (
	"fmt"
	"os"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
	"github.com/ptyseam/ptyseam/testharness"
	"go.uber.org/goleak"
)

// TestMain stops the package's dockerd, then checks for leaked goroutines
// and removes the children binary (failing if any of its processes
// survived).
func TestMain(m *testing.M) {
	code := m.Run()
	if err := dockertest.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "dockertest:", err)
		code = max(code, 1)
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	if err := testharness.Cleanup(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = max(code, 1)
	}
	os.Exit(code)
}
