package main

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// checkModFile checks what the go.mod and the module directory declare on
// their own: a go version importers can meet and a license.
func (c *checker) checkModFile(m *modDir) []string {
	var problems []string
	if m.file.Go == nil {
		problems = append(problems, fmt.Sprintf("%s: go.mod has no go line", m.dir))
	} else if parts := strings.Split(m.file.Go.Version, "."); len(parts) == 3 && parts[2] != "0" {
		problems = append(problems, fmt.Sprintf("%s: go.mod says go %s: a library that demands a patch release pushes it on every importer; declare %s.%s.0 (or the lowest release the code and its requirements need)",
			m.dir, m.file.Go.Version, parts[0], parts[1]))
	}
	if _, err := os.Stat(filepath.Join(c.src(), m.dir, "LICENSE")); err != nil {
		problems = append(problems, fmt.Sprintf("%s: no LICENSE file in the module (a module zip holds only its own directory)", m.dir))
	}
	return problems
}

// checkSiblings finds the imports of every other released module in m's Go
// files (tests included) and checks that m requires that module, directly, at
// the candidate version.
func (c *checker) checkSiblings(m *modDir) ([]string, error) {
	imported, err := siblingImports(filepath.Join(c.src(), m.dir), m, c.modules)
	if err != nil {
		return nil, err
	}
	required := map[string]string{}
	indirect := map[string]bool{}
	for _, r := range m.file.Require {
		required[r.Mod.Path] = r.Mod.Version
		indirect[r.Mod.Path] = r.Indirect
	}
	var problems []string
	for _, dep := range imported {
		v, ok := required[dep]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s: imports %s but does not require it; add `require %s %s`", m.dir, dep, dep, c.version))
		case v != c.version:
			problems = append(problems, fmt.Sprintf("%s: requires %s %s, want the candidate %s", m.dir, dep, v, c.version))
		case indirect[dep]:
			problems = append(problems, fmt.Sprintf("%s: marks %s indirect though it imports it", m.dir, dep))
		}
	}
	for _, r := range m.file.Replace {
		problems = append(problems, fmt.Sprintf("%s: go.mod replaces %s: `go install module@version` refuses a module with replace directives; use the workspace for local development", m.dir, r.Old.Path))
	}
	return problems, nil
}

// siblingImports returns the module paths of the other modules whose
// packages the Go files under dir import, skipping nested modules and
// testdata.
func siblingImports(dir string, self *modDir, all []*modDir) ([]string, error) {
	found := map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p != dir && (name == "testdata" || name == "vendor" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || fileExists(filepath.Join(p, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if owner := owningModule(path, all); owner != "" && owner != self.path {
				found[owner] = true
			}
		}
		return nil
	})
	out := make([]string, 0, len(found))
	for p := range found {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, err
}

// owningModule returns the path of the module among all that holds the
// package importPath (the longest module path that prefixes it), or "".
func owningModule(importPath string, all []*modDir) string {
	best := ""
	for _, m := range all {
		if (importPath == m.path || strings.HasPrefix(importPath, m.path+"/")) && len(m.path) > len(best) {
			best = m.path
		}
	}
	return best
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
