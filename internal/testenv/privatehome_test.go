package testenv

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// TestProgramsGetAPrivateHome: a program the tests start finds a HOME of
// the test process's own, not the user's that every test process and the
// people on the machine share: a Python REPL writes its history there.
func TestProgramsGetAPrivateHome(t *testing.T) {
	if _, err := PrivateHome(); err != nil { // what TestMain does
		t.Fatal(err)
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	home := os.Getenv("HOME")
	if home == "" || filepath.Clean(home) == filepath.Clean(u.HomeDir) {
		t.Fatalf("the tests run with HOME=%q, the user's own home", home)
	}
	cmd := exec.Command("python3", "-i", "-q", "-c", "import os; print(os.path.expanduser('~'))")
	cmd.Stdin = strings.NewReader("6*7\n")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3: %v: %s", err, out)
	}
	if !strings.HasPrefix(string(out), home+"\n") {
		t.Fatalf("python3's ~ is not HOME %s: %q", home, out)
	}
	if _, err := os.Stat(filepath.Join(home, ".python_history")); err != nil {
		t.Fatalf("the REPL's history is not in the private HOME: %v", err)
	}
	// The go command keeps its caches: a build the tests run does not
	// start cold in the new HOME.
	for _, name := range []string{"GOCACHE", "GOMODCACHE"} {
		out, err := exec.Command(GoTool(), "env", name).Output()
		if dir := strings.TrimSpace(string(out)); err != nil || dir == "" || strings.HasPrefix(dir, home) {
			t.Fatalf("go env %s: %q %v, want the user's", name, dir, err)
		}
	}
}
