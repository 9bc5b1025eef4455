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
// for leaked goroutines and removes the built binaries.
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
