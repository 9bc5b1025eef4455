package bench

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
	"go.uber.org/goleak"
)

// TestMain stops the private dockerd if a benchmark started one, checks
// for leaked goroutines and removes the built binaries. With
// PTYSEAM_BENCH_STRICT=1 it sets CI, so that the sshd and dockerd kits
// (sshdtest, dockertest) fail a benchmark that cannot run here instead of
// skipping it. A binary started with PTYSEAM_BENCH_MCP_SERVER set is a
// minimal MCP server (serveMinimal) and runs no benchmark.
func TestMain(m *testing.M) {
	if kind := os.Getenv(minimalServerEnv); kind != "" {
		os.Exit(serveMinimal(kind, os.Getenv(minimalHTTPEnv)))
	}
	if strict() && os.Getenv("CI") == "" {
		_ = os.Setenv("CI", "true")
	}
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
	for _, dir := range builtDirs.take() {
		_ = os.RemoveAll(dir)
	}
	os.Exit(code)
}

// builtDirs are the directories of binaries built for the benchmarks.
var builtDirs dirList

type dirList struct {
	mu   sync.Mutex
	dirs []string
}

func (l *dirList) add(dir string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.dirs = append(l.dirs, dir)
}

func (l *dirList) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	d := l.dirs
	l.dirs = nil
	return d
}

// strict reports whether a benchmark that cannot run here must fail, not
// skip: under CI or with PTYSEAM_BENCH_STRICT=1 (scripts/bench.sh).
func strict() bool {
	return os.Getenv("CI") != "" || os.Getenv("PTYSEAM_BENCH_STRICT") == "1"
}

// skipOrFail skips b, or fails it when [strict].
func skipOrFail(b testing.TB, format string, args ...any) {
	b.Helper()
	if strict() {
		b.Fatalf(format, args...)
	}
	b.Skipf(format, args...)
}
