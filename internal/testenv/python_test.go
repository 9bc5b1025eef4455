package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestDirectInterpreterSkipsTheShim: with a shim (a shell script that
// execs the interpreter) first on PATH, DirectInterpreter puts the
// interpreter's own directory ahead of it, so that python3 no longer
// starts through a script.
func TestDirectInterpreterSkipsTheShim(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skipf("no python3 here: %v", err)
	}
	out, err := exec.Command(python, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	real := string(out[:len(out)-1])
	shims := t.TempDir()
	shim := "#!/bin/sh\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(shims, "python3"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", shims+string(os.PathListSeparator)+os.Getenv("PATH"))
	if found, _ := exec.LookPath("python3"); !isScript(found) {
		t.Fatalf("the shim %s is not what PATH finds: %s", shims, found)
	}
	if err := DirectInterpreter(); err != nil {
		t.Fatal(err)
	}
	found, err := exec.LookPath("python3")
	if err != nil || isScript(found) {
		t.Fatalf("after DirectInterpreter PATH finds %s (%v), a script; want the interpreter in %s", found, err, filepath.Dir(real))
	}
	if filepath.Dir(found) != filepath.Dir(real) {
		t.Fatalf("PATH finds %s, want the python3 next to %s", found, real)
	}
}

// TestDirectInterpreterLeavesABinaryAlone: when python3 on PATH is the
// interpreter itself, PATH does not change.
func TestDirectInterpreterLeavesABinaryAlone(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "python3"), []byte("\x7fELF not really"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if err := DirectInterpreter(); err != nil {
		t.Fatal(err)
	}
	if got := os.Getenv("PATH"); got != dir {
		t.Fatalf("PATH = %q, want it unchanged (%q)", got, dir)
	}
}
