package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Every Go snippet in the newcomer's pages (README.md, CONTRIBUTING.md,
// docs/*.md) is type-checked against the workspace's packages, so a
// renamed field or function fails here until the page follows the code.
//
// A snippet is a fragment: it may use variables it does not declare (ctx,
// svc, owner) and leave values unused. The check wraps statements in a
// function, adds the imports its package names need (snippetImports), and
// reports every type error except those two: an undeclared lower-case
// name and a declared and unused variable. Everything else (a field, a
// method or a type the package lacks, a wrong argument) fails the test.

// snippetImports maps the package names snippets use to their paths.
var snippetImports = map[string]string{
	"context":     "context",
	"errors":      "errors",
	"fmt":         "fmt",
	"json":        "encoding/json",
	"slog":        "log/slog",
	"log":         "log",
	"testing":     "testing",
	"time":        "time",
	"core":        modulePrefix + "core",
	"localpty":    modulePrefix + "core/localpty",
	"record":      modulePrefix + "core/record",
	"scrollback":  modulePrefix + "core/scrollback",
	"ptysession":  modulePrefix + "ptysession",
	"tools":       modulePrefix + "ptysession/tools",
	"ptytools":    modulePrefix + "ptysession/ptytools",
	"gdbmi":       modulePrefix + "consumers/gdbmi",
	"docker":      modulePrefix + "consumers/docker",
	"ssh":         modulePrefix + "consumers/ssh",
	"openssh":     modulePrefix + "consumers/ssh/openssh",
	"shellrun":    modulePrefix + "consumers/ssh/shellrun",
	"sshagent":    modulePrefix + "consumers/ssh/sshagent",
	"jobs":        modulePrefix + "consumers/jobs",
	"remote":      modulePrefix + "remote",
	"screen":      modulePrefix + "screen",
	"testharness": modulePrefix + "testharness",
	"testenv":     modulePrefix + "internal/testenv",
}

// snippet is one ```go block of a page.
type snippet struct {
	page string // relative to the root
	line int    // of the block's first code line
	code string
}

// docSnippets returns the Go blocks of the newcomer's pages.
func docSnippets(t *testing.T, root string) []snippet {
	t.Helper()
	pages := []string{"README.md", "CONTRIBUTING.md"}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		pages = append(pages, filepath.Join("docs", filepath.Base(d)))
	}
	var out []snippet
	for _, p := range pages {
		f, err := os.Open(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, readSnippets(p, f)...)
		f.Close()
	}
	return out
}

// readSnippets splits one page's ```go blocks out of r.
func readSnippets(page string, r io.Reader) []snippet {
	var out []snippet
	var cur *snippet
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.TrimSpace(line) == "```go":
			cur = &snippet{page: page, line: n + 1}
		case cur != nil && strings.TrimSpace(line) == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.code += line + "\n"
		}
	}
	return out
}

// snippetFile makes a Go file of a snippet: as it stands when it is a run
// of declarations, else its statements wrapped in a function. The line
// directive maps errors back to the page.
func snippetFile(s snippet) string {
	directive := fmt.Sprintf("//line %s:%d\n", s.page, s.line)
	decls := "package snippet\n\n" + directive + s.code
	if _, err := parser.ParseFile(token.NewFileSet(), "", decls, 0); err == nil {
		return decls
	}
	return "package snippet\n\nfunc _() error {\n" + directive + s.code + "\nreturn nil\n}\n"
}

// withImports adds the imports for the package names f uses.
func withImports(src string) (string, []string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, 0)
	if err != nil {
		return "", nil, err
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				if _, known := snippetImports[id.Name]; known {
					used[id.Name] = true
				}
			}
		}
		return true
	})
	var paths []string
	for name := range used {
		paths = append(paths, snippetImports[name])
	}
	slices.Sort(paths)
	if len(paths) == 0 {
		return src, nil, nil
	}
	var b strings.Builder
	b.WriteString("package snippet\n\nimport (\n")
	for _, p := range paths {
		fmt.Fprintf(&b, "\t%q\n", p)
	}
	b.WriteString(")\n")
	return strings.Replace(src, "package snippet\n", b.String(), 1), paths, nil
}

// exportData builds paths and returns where the compiler's export data of
// each package they depend on is.
func exportData(t *testing.T, root string, paths []string) map[string]string {
	t.Helper()
	args := append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}"}, paths...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	export := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(l, "="); ok && file != "" {
			export[path] = file
		}
	}
	return export
}

// forgivenError matches the type errors a fragment is allowed: a name it
// does not declare and a value it leaves unused.
var forgivenError = regexp.MustCompile(`^(undefined: [a-z]\w*|declared and not used: \w+)$`)

func TestDocSnippetsTypeCheck(t *testing.T) {
	root := repoRoot(t)
	snips := docSnippets(t, root)
	if len(snips) == 0 {
		t.Fatal("no Go snippets found in the pages")
	}
	srcs := make([]string, len(snips))
	need := map[string]bool{}
	for i, s := range snips {
		src, paths, err := withImports(snippetFile(s))
		if err != nil {
			t.Errorf("%s:%d: the snippet does not parse: %v", s.page, s.line, err)
			continue
		}
		srcs[i] = src
		for _, p := range paths {
			need[p] = true
		}
	}
	var paths []string
	for p := range need {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	export := exportData(t, root, paths)
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := export[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	for i, s := range snips {
		if srcs[i] == "" {
			continue
		}
		f, err := parser.ParseFile(fset, s.page, srcs[i], 0)
		if err != nil {
			t.Errorf("%s:%d: %v", s.page, s.line, err)
			continue
		}
		conf := types.Config{Importer: imp, Error: func(err error) {
			if te, ok := err.(types.Error); ok && forgivenError.MatchString(te.Msg) {
				return
			}
			t.Errorf("%v", err)
		}}
		conf.Check("snippet", fset, []*ast.File{f}, nil) //nolint:errcheck // errors go to conf.Error
	}
}

func TestSnippetErrorsAreFound(t *testing.T) {
	src, _, err := withImports(snippetFile(snippet{page: "x.md", line: 3, code: "o := core.NewOwner(\"a\")\nfmt.Println(o.NoSuchField, svc)\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(src, `"fmt"`) || !strings.Contains(src, modulePrefix+"core\"") {
		t.Fatalf("imports not added:\n%s", src)
	}
	export := exportData(t, repoRoot(t), []string{"fmt", modulePrefix + "core"})
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.md", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	conf := types.Config{
		Importer: importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(export[path]) }),
		Error: func(err error) {
			if te := err.(types.Error); !forgivenError.MatchString(te.Msg) {
				kept = append(kept, err.Error())
			}
		},
	}
	conf.Check("snippet", fset, []*ast.File{f}, nil) //nolint:errcheck // errors go to conf.Error
	if len(kept) != 1 || !strings.Contains(kept[0], "NoSuchField") || !strings.HasPrefix(kept[0], "x.md:4:") {
		t.Fatalf("want one error naming NoSuchField at x.md:4, got %q", kept)
	}
}
