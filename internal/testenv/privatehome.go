package testenv

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
)

// goDirs are the go command's directories that default to places under
// HOME (or the XDG directories): PrivateHome pins them to what they were.
var goDirs = []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOENV", "GOTELEMETRYDIR"}

// homeDirs are the XDG base directories PrivateHome sets, below the new
// HOME.
var homeDirs = []struct{ name, rel string }{
	{"XDG_CONFIG_HOME", ".config"},
	{"XDG_CACHE_HOME", ".cache"},
	{"XDG_DATA_HOME", ".local/share"},
	{"XDG_STATE_HOME", ".local/state"},
}

var privateHome struct {
	once sync.Once
	dir  string
	err  error
}

// PrivateHome gives the test process, and so every program its tests
// start, a HOME and XDG base directories of its own (a [ProcessDir]) in
// place of the user's, which every test process of the machine and the
// people working on it share. Interactive programs read and write there
// under fixed names: bash and python3 their histories (.bash_history,
// .python_history, and a .python_history-PID.tmp left by each REPL killed
// while writing it), less its .lesshst through the one temporary
// .lesshsQ, vim its .viminfo through .viminfa.tmp ... .viminfz.tmp (once
// killed vims had left all 26, every later vim stopped at its exit with
// E929), and readline and gdb read their settings from there (.inputrc,
// .gdbinit), which would change what the tests drive. (OpenSSH's client
// finds its files through the password database, not HOME: give it -F
// and UserKnownHostsFile.) The go command's own directories (GOCACHE, GOMODCACHE, GOPATH,
// GOENV, GOTELEMETRYDIR) are pinned first to what `go env` says, so the
// builds the tests run keep their caches. It also calls
// [DirectInterpreter], so that python3 starts without a version manager's
// shim.
//
// A TestMain calls it before the tests run (testharness.RunMarked and
// VerifyTestMain do) and removes the returned HOME at the end.
func PrivateHome() (string, error) {
	privateHome.once.Do(func() { privateHome.dir, privateHome.err = makePrivateHome() })
	return privateHome.dir, privateHome.err
}

func makePrivateHome() (string, error) {
	var values [][]byte
	out, err := exec.Command(GoTool(), append([]string{"env"}, goDirs...)...).Output()
	switch {
	case errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist):
		// No go command (a test binary run where it was copied): no
		// build to keep a cache for.
	case err != nil:
		return "", fmt.Errorf("testenv: go env, to keep the go command's directories under a private HOME: %w", err)
	default:
		values = bytes.Split(bytes.TrimRight(out, "\n"), []byte("\n"))
		if len(values) != len(goDirs) {
			return "", fmt.Errorf("testenv: go env %v printed %q", goDirs, out)
		}
	}
	home, err := ProcessDir("ptyseam-home-")
	if err != nil {
		return "", fmt.Errorf("testenv: a private HOME: %w", err)
	}
	for i, v := range values {
		if name := goDirs[i]; len(v) > 0 && os.Getenv(name) == "" {
			if err := os.Setenv(name, string(v)); err != nil {
				return "", err
			}
		}
	}
	for _, d := range homeDirs {
		p := filepath.Join(home, d.rel)
		if err := os.MkdirAll(p, 0o700); err != nil {
			return "", err
		}
		if err := os.Setenv(d.name, p); err != nil {
			return "", err
		}
	}
	if err := DirectInterpreter(); err != nil {
		return "", err
	}
	return home, os.Setenv("HOME", home)
}

// GoTool finds the go command: on PATH, else in GOROOT.
func GoTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// MustPrivateHome is PrivateHome for a TestMain that does not use the test
// harness: it ends the process when PrivateHome fails, and returns the
// function that removes the HOME, to call once the tests have run.
func MustPrivateHome() (remove func()) {
	home, err := PrivateHome()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return func() { _ = RemoveTree(home) }
}
