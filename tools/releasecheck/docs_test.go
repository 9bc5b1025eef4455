package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// The newcomer's path (README.md, CONTRIBUTING.md, docs/architecture.md)
// names the workspace's modules and what each imports; these tests hold
// those pages to the code, so a module added, or an import added or
// removed, fails here until the pages say so.

const modulePrefix = "github.com/ptyseam/ptyseam/"

// repoRoot is the workspace's root: this module sits at tools/releasecheck.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// workspaceModules lists the folders go.work uses, relative to the root
// ("core", "consumers/ssh").
func workspaceModules(t *testing.T, root string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "go.work"))
	if err != nil {
		t.Fatal(err)
	}
	wf, err := modfile.ParseWork("go.work", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mods []string
	for _, u := range wf.Use {
		mods = append(mods, strings.TrimPrefix(filepath.ToSlash(u.Path), "./"))
	}
	slices.Sort(mods)
	return mods
}

// moduleOf maps an import path of the workspace to its module's folder,
// the longest module folder that prefixes it.
func moduleOf(mods []string, importPath string) string {
	rel, ok := strings.CutPrefix(importPath, modulePrefix)
	if !ok {
		return ""
	}
	best := ""
	for _, m := range mods {
		if (rel == m || strings.HasPrefix(rel, m+"/")) && len(m) > len(best) {
			best = m
		}
	}
	return best
}

// moduleDeps lists the workspace modules the non-test packages of
// module m depend on, directly or not.
func moduleDeps(t *testing.T, root string, mods []string, m string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "./...")
	cmd.Dir = filepath.Join(root, filepath.FromSlash(m))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps in %s: %v", m, err)
	}
	seen := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		if dep := moduleOf(mods, p); dep != "" && dep != m {
			seen[dep] = true
		}
	}
	var deps []string
	for d := range seen {
		deps = append(deps, d)
	}
	slices.Sort(deps)
	return deps
}

// documentedImports reads docs/architecture.md's "Module imports" table:
// module -> the modules it imports, as the page states them.
func documentedImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	table := map[string][]string{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## Module imports"
			continue
		}
		if !in || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 2 {
			t.Fatalf("architecture.md: malformed row %q", line)
		}
		mod := strings.Trim(strings.TrimSpace(cells[0]), "`")
		var deps []string
		for _, d := range strings.Split(cells[1], ",") {
			if d = strings.Trim(strings.TrimSpace(d), "`"); d != "" && d != "nothing" {
				deps = append(deps, d)
			}
		}
		slices.Sort(deps)
		table[mod] = deps
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(table) == 0 {
		t.Fatal("docs/architecture.md has no \"## Module imports\" table")
	}
	return table
}

// Every module's row in docs/architecture.md names exactly the workspace
// modules its non-test packages import (go list -deps): no arrow the code
// lacks, none it has left out.
func TestArchitectureNamesEveryImport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the workspace")
	}
	root := repoRoot(t)
	mods := workspaceModules(t, root)
	doc := documentedImports(t, root)
	for _, m := range mods {
		want, ok := doc[m]
		if !ok {
			t.Errorf("docs/architecture.md's module imports table has no row for %s", m)
			continue
		}
		if got := moduleDeps(t, root, mods, m); !slices.Equal(got, want) {
			t.Errorf("%s imports %v; docs/architecture.md says %v", m, got, want)
		}
	}
	for m := range doc {
		if !slices.Contains(mods, m) {
			t.Errorf("docs/architecture.md lists %s, which go.work does not use", m)
		}
	}
}

// README.md's and CONTRIBUTING.md's module tables name every module of
// the workspace.
func TestModuleTablesNameEveryModule(t *testing.T) {
	root := repoRoot(t)
	mods := workspaceModules(t, root)
	for _, page := range []string{"README.md", "CONTRIBUTING.md"} {
		data, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		var rows []string
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "| `") {
				rows = append(rows, strings.SplitN(strings.Trim(line, "|"), "|", 2)[0])
			}
		}
		for _, m := range mods {
			if !slices.ContainsFunc(rows, func(first string) bool { return strings.Contains(first, "`"+m+"`") }) {
				t.Errorf("%s's module table has no row naming `%s`", page, m)
			}
		}
	}
}

// testKits are the packages no shipped package may link: the test harness
// and the assertion and leak-check libraries the tests use.
var testKits = []string{
	"github.com/ptyseam/ptyseam/testharness",
	"github.com/stretchr/testify",
	"go.uber.org/goleak",
}

// No library module's non-test packages, and not the binary, link a test
// kit: a user importing one downloads and builds none of them.
func TestShippedModulesLinkNoTestKit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the workspace")
	}
	root := repoRoot(t)
	for _, m := range workspaceModules(t, root) {
		switch m {
		case "testharness", "bench", "hardening", "tools/releasecheck":
			continue // test kits and tests themselves
		}
		cmd := exec.Command("go", "list", "-deps", "./...")
		cmd.Dir = filepath.Join(root, filepath.FromSlash(m))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps in %s: %v", m, err)
		}
		for _, p := range strings.Fields(string(out)) {
			for _, kit := range testKits {
				if p == kit || strings.HasPrefix(p, kit+"/") {
					t.Errorf("%s links %s", m, p)
				}
			}
		}
	}
}

// A program that uses only the facade (open, send, tail, close) links no
// JSON Schema code: the model tools and their schemas are a package of
// their own (ptysession/ptytools).
func TestFacadeLinksNoSchemaCode(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", modulePrefix+"ptysession")
	cmd.Dir = repoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ptysession: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "jsonschema") || p == modulePrefix+"ptysession/tools" {
			t.Errorf("the facade links %s", p)
		}
	}
}
