package gdbmi

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/testharness"
)

// requireTools fails the test under CI and skips it elsewhere when gdb or
// gcc is missing.
func requireTools(t testing.TB) {
	t.Helper()
	for _, tool := range []string{"gdb", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is required (install the Debian packages gdb and gcc): %v", tool, err)
			}
			t.Skipf("%s not found: install the Debian packages gdb and gcc to run this test", tool)
		}
	}
}

// compile builds testdata/<name>.c with gcc -g -O0 -pthread (and any
// extra flags) into a temporary directory and returns the executable's
// path.
func compile(t testing.TB, name string, flags ...string) string {
	t.Helper()
	requireTools(t)
	out := filepath.Join(t.TempDir(), name)
	// Compiled from inside testdata so that gdb reports file="<name>.c".
	args := append([]string{"-g", "-O0", "-pthread"}, flags...)
	cmd := exec.Command("gcc", append(args, "-o", out, name+".c")...)
	cmd.Dir = "testdata"
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gcc %s: %v\n%s", name, err, b)
	}
	return out
}

// compileCXX builds testdata/<name>.cpp with g++ -g -O0 into a temporary
// directory and returns the executable's path; g++ is required under CI.
func compileCXX(t testing.TB, name string) string {
	t.Helper()
	requireTools(t)
	if _, err := exec.LookPath("g++"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("g++ is required (install the Debian package g++): %v", err)
		}
		t.Skipf("g++ not found: install the Debian package g++ to run this test")
	}
	out := filepath.Join(t.TempDir(), name)
	cmd := exec.Command("g++", "-g", "-O0", "-o", out, name+".cpp")
	cmd.Dir = "testdata"
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("g++ %s: %v\n%s", name, err, b)
	}
	return out
}

// newService returns a service with the local PTY backends, shut down at
// the end of the test.
func newService(t testing.TB) *core.Service {
	t.Helper()
	return testharness.NewLocalService(t, core.Options{})
}

// testCtx bounds one test.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	t.Cleanup(cancel)
	return ctx
}

// startGDB starts a client on program name (compiled from testdata) and
// closes it at the end of the test, checking that gdb is gone.
func startGDB(t testing.TB, name string, opts Options) (*Client, *core.Service) {
	t.Helper()
	if name != "" {
		opts.Program = compile(t, name)
	} else {
		requireTools(t)
	}
	svc := newService(t)
	c, err := Start(testCtx(t), svc, opts)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	info, err := svc.Info(c.Owner(), c.GDBSession())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
		defer cancel()
		if err := c.Close(ctx); err != nil {
			t.Errorf("Close: %v", err)
		}
		if info.PID > 0 && syscall.Kill(info.PID, 0) == nil {
			t.Errorf("gdb (pid %d) still runs after Close", info.PID)
		}
	})
	return c, svc
}

// programText returns everything the debugged program printed so far.
func programText(t testing.TB, c *Client) string {
	t.Helper()
	p, err := c.ProgramOutput(core.PageRequest{Start: 0, Count: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(p.Lines, "\n")
}

// eventsUntilStop reads c's events up to and including the first *stopped
// event with the given reason.
func eventsUntilStop(t *testing.T, ctx context.Context, c *Client, reason StopReason) []Event {
	t.Helper()
	var evs []Event
	for {
		select {
		case ev, ok := <-c.Events():
			if !ok {
				t.Fatalf("events ended before a stop with reason %q", reason)
			}
			evs = append(evs, ev)
			if ev.Stopped != nil && ev.Stopped.Reason == reason {
				return evs
			}
		case <-ctx.Done():
			t.Fatalf("no stop with reason %q", reason)
		}
	}
}
