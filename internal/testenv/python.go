package testenv

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// pythonResolveBound bounds the one start of python3 that
// DirectInterpreter makes (a hang bound: it normally takes under a
// second, a few seconds on a loaded machine).
const pythonResolveBound = HangBound

// DirectInterpreter puts the directory of the python3 interpreter itself
// first on PATH when the python3 that PATH finds is a script (a version
// manager's shim, such as pyenv's, which runs a pipeline of shell scripts
// at every start to pick the interpreter, then execs it). The tests start
// python3 hundreds of times, and each start through pyenv's shim costs
// about 0.7 s of CPU (seconds of wall time on a loaded machine) before
// Python runs; the interpreter the shim would pick is the same. It asks
// the shim once which interpreter it runs (sys.executable) and does
// nothing when python3 is missing, is not a script, or cannot tell.
// PrivateHome calls it, so every TestMain that gives the tests a private
// HOME also gets it.
func DirectInterpreter() error {
	path, err := exec.LookPath("python3")
	if err != nil || !isScript(path) {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), pythonResolveBound)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return nil // python3 is broken here: the tests that need it say so
	}
	real := strings.TrimSpace(string(out))
	if !filepath.IsAbs(real) || isScript(real) {
		return nil
	}
	dir := filepath.Dir(real)
	if _, err := os.Stat(filepath.Join(dir, "python3")); err != nil {
		return nil
	}
	if err := os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH")); err != nil {
		return fmt.Errorf("testenv: putting %s first on PATH: %w", dir, err)
	}
	return nil
}

// isScript reports whether the file at path starts with "#!".
func isScript(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 2)
	n, _ := f.Read(head)
	return bytes.Equal(head[:n], []byte("#!"))
}
