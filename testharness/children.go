package testharness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// childrenPackage is the import path of the child programs.
const childrenPackage = "github.com/ptyseam/ptyseam/testharness/children"

// built is the children binary of this test process.
var built struct {
	mu   sync.Mutex
	dir  string // temporary directory holding the binary
	path string
	err  error
}

// ChildrenBinary builds the child programs (see the children directory)
// once per process into a [BuildDir] and returns the binary's
// path. It runs `go build` in the current directory, which must be inside
// a module that can build the testharness (a test's package directory
// is). Call [Cleanup] when done; [VerifyTestMain] does.
func ChildrenBinary(ctx context.Context) (string, error) {
	built.mu.Lock()
	defer built.mu.Unlock()
	if built.path != "" || built.err != nil {
		return built.path, built.err
	}
	dir, err := BuildDir("children-")
	if err != nil {
		built.err = fmt.Errorf("testharness: building the children: %w", err)
		return "", built.err
	}
	path := filepath.Join(dir, "children")
	cmd := exec.CommandContext(ctx, goTool(), "build", "-o", path, childrenPackage)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		_ = os.RemoveAll(dir)
		// A cancelled build may succeed on a later call.
		if ctx.Err() != nil {
			return "", fmt.Errorf("testharness: building the children: %w", ctx.Err())
		}
		built.err = fmt.Errorf("testharness: go build %s: %w\n%s", childrenPackage, err, out)
		return "", built.err
	}
	built.dir, built.path = dir, path
	return path, nil
}

// BuildChildren is [ChildrenBinary] for tests: it fails t if the build
// fails. The binary is shared by every test of the process.
func BuildChildren(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	path, err := ChildrenBinary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// Child returns the argv that runs one child program: the binary built by
// [BuildChildren] followed by the subcommand and its arguments, e.g.
// Child(t, "echo-repl").
func Child(t testing.TB, args ...string) []string {
	t.Helper()
	return append([]string{BuildChildren(t)}, args...)
}

// Cleanup removes the children binary and kills any process still running
// it, and removes the process's private home. It returns an error naming
// such survivors: a test that leaves a child behind has leaked a process. Calling it when nothing was built is a no-op.
func Cleanup() error {
	built.mu.Lock()
	defer built.mu.Unlock()
	var errs []error
	if built.path != "" {
		if pids := processesRunning(built.path); len(pids) > 0 {
			for _, pid := range pids {
				killProcess(pid)
			}
			errs = append(errs, fmt.Errorf("testharness: child processes survived the tests: pids %v", pids))
		}
	}
	if built.dir != "" {
		if err := os.RemoveAll(built.dir); err != nil {
			errs = append(errs, err)
		}
	}
	built.dir, built.path, built.err = "", "", nil
	if err := testenv.RemoveRegistered(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// VerifyTestMain runs the tests of a package that uses the harness: it
// gives the process a private HOME (testenv.PrivateHome), then is
// goleak.VerifyTestMain with a cleanup that calls [Cleanup] and fails the
// run if a child process survived. Call it from TestMain:
//
//	func TestMain(m *testing.M) { testharness.VerifyTestMain(m) }
func VerifyTestMain(m *testing.M, opts ...goleak.Option) {
	mustPrivateHome()
	exit := func(code int) {
		if err := Cleanup(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			if code == 0 {
				code = 1
			}
		}
		os.Exit(code)
	}
	goleak.VerifyTestMain(m, append(opts, goleak.Cleanup(exit))...)
}

// goTool finds the go command: on PATH, else in GOROOT.
func goTool() string { return testenv.GoTool() }
