package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeRepo writes a two-module repository (b imports a) into a fresh git
// repository, applies edit to the file map first, commits, and returns it.
func fakeRepo(t *testing.T, edit func(files map[string]string)) string {
	t.Helper()
	files := map[string]string{
		"a/go.mod":  "module example.com/r/a\n\ngo 1.26.0\n",
		"a/LICENSE": "MIT\n",
		"a/a.go":    "// Package a answers.\npackage a\n\n// Answer is 42.\nfunc Answer() int { return 42 }\n",
		"b/go.mod":  "module example.com/r/b\n\ngo 1.26.0\n\nrequire example.com/r/a v0.1.0\n",
		"b/LICENSE": "MIT\n",
		"b/b.go":    "// Package b doubles a's answer.\npackage b\n\nimport \"example.com/r/a\"\n\n// Twice is twice a's answer.\nfunc Twice() int { return 2 * a.Answer() }\n",
		"go.work":   "go 1.26.0\n\nuse (\n\t./a\n\t./b\n)\n\nreplace example.com/r/a v0.1.0 => ./a\n",
		"VERSION":   "v0.1.0\n",
	}
	if edit != nil {
		edit(files)
	}
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "-A"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "fake"},
	} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func checkRepo(t *testing.T, dir string) []string {
	t.Helper()
	c := &checker{root: dir, version: "v0.1.0", rev: "HEAD", scratch: t.TempDir()}
	problems, err := c.check(context.Background(), []string{"a", "b"})
	if err != nil {
		t.Fatalf("check could not run: %v", err)
	}
	return problems
}

func TestReleasableTreePasses(t *testing.T) {
	if problems := checkRepo(t, fakeRepo(t, nil)); len(problems) > 0 {
		t.Fatalf("want no problems, got:\n%s", strings.Join(problems, "\n"))
	}
}

func TestRefusesWhatCannotBeReleased(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(map[string]string)
		want string
	}{
		{"reserved file name", func(f map[string]string) { f["a/testdata/fuzz/FuzzX/nul"] = "go test fuzz v1\n" }, "nul"},
		{"missing sibling requirement", func(f map[string]string) { f["b/go.mod"] = "module example.com/r/b\n\ngo 1.26.0\n" }, "does not require"},
		{"sibling at another version", func(f map[string]string) {
			f["b/go.mod"] = "module example.com/r/b\n\ngo 1.26.0\n\nrequire example.com/r/a v0.0.9\n"
		}, "want the candidate"},
		{"patch release of go", func(f map[string]string) { f["a/go.mod"] = "module example.com/r/a\n\ngo 1.26.8\n" }, "patch release"},
		{"no license", func(f map[string]string) { delete(f, "b/LICENSE") }, "LICENSE"},
		{"replace directive", func(f map[string]string) { f["b/go.mod"] += "\nreplace example.com/r/a => ../a\n" }, "replace"},
		{"untidy go.mod", func(f map[string]string) { f["a/go.mod"] += "\nrequire example.com/r/b v0.1.0\n" }, "tidy"},
		{"does not build", func(f map[string]string) { f["b/b.go"] += "\nvar broken int = \"x\"\n" }, "vet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems := checkRepo(t, fakeRepo(t, tc.edit))
			for _, p := range problems {
				if strings.Contains(p, tc.want) {
					return
				}
			}
			t.Fatalf("want a problem mentioning %q, got %d:\n%s", tc.want, len(problems), strings.Join(problems, "\n"))
		})
	}
}
