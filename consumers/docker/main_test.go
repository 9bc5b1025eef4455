package docker

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
	"github.com/ptyseam/ptyseam/testharness"
	"go.uber.org/goleak"
)

// parallelSuites is how many tests run at once by default: the
// conformance and terminals suites, in each of the four modes, run in
// parallel on the package's daemon (after the other tests, one by one).
const parallelSuites = 8

// TestMain stops the package's dockerd, then checks for leaked goroutines
// and removes the children binary (failing if any of its processes
// survived).
func TestMain(m *testing.M) {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		// The suites that call t.Parallel wait on the engine more
		// than they compute: run them all at once unless told.
		_ = flag.Set("test.parallel", strconv.Itoa(parallelSuites))
	}
	code := m.Run()
	removeAgentBinary()
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
