package shellquote

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestJoin(t *testing.T) {
	if got := Join([]string{"a=b", "x y"}); got != "'a=b' 'x y'" {
		t.Errorf("Join = %s", got)
	}
	if got := JoinBare([]string{"python3", "-c", "print('hi')", "", "a b", "$X", "é", "a=b", "done"}); got != `python3 -c 'print('\''hi'\'')' '' 'a b' '$X' 'é' a=b done` {
		t.Errorf("JoinBare = %s", got)
	}
}

// TestJoinBareRunsTheFirstWord: a bare first word that a shell would parse
// as syntax (a reserved word, an assignment) is quoted, so that the line
// runs the program of that name. (Leaving every plain word bare made
// `done x` a syntax error and `a=b x` an assignment.)
func TestJoinBareRunsTheFirstWord(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"done", "if", "a=b", "plain"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\necho ran \"$@\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, sh := range []string{"/bin/sh", "/bin/bash"} {
			line := JoinBare([]string{name, "x", "it's"})
			cmd := exec.Command(sh, "-c", line)
			cmd.Env = []string{"PATH=" + dir + ":/usr/bin:/bin"}
			if out, err := cmd.CombinedOutput(); err != nil || string(out) != "ran x it's\n" {
				t.Errorf("%s -c %s: %q (%v), want the program to run", sh, line, out, err)
			}
		}
	}
}
