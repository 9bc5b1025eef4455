package core

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxOptionalInterfaces bounds the optional interfaces the service finds on
// a backend session by type assertion (docs/core.md, "The backend
// contract"): one terminal contract, BackendSession, and at most this many
// extras. A new question about the terminal belongs in Prober.
const maxOptionalInterfaces = 3

// TestOptionalBackendInterfaces type-checks core's non-test files and counts
// the interfaces a BackendSession is asserted to (x.(T) and type switches),
// so that their number cannot silently grow past maxOptionalInterfaces.
func TestOptionalBackendInterfaces(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	std := importer.ForCompiler(fset, "source", nil)
	conf := types.Config{
		// Core's own subpackages (scrollback, promptmark, ...) need not
		// resolve: a BackendSession's type comes from this package alone.
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if strings.Contains(path, ".") {
				return types.NewPackage(path, filepath.Base(path)), nil
			}
			return std.Import(path)
		}),
		Error: func(error) {}, // unresolved imports: carry on
	}
	pkg, _ := conf.Check("github.com/ptyseam/ptyseam/core", fset, files, info)
	obj := pkg.Scope().Lookup("BackendSession")
	if obj == nil {
		t.Fatal("core declares no BackendSession")
	}
	session := obj.Type().Underlying().(*types.Interface)

	found := map[string][]string{} // interface -> where
	note := func(x ast.Expr, target ast.Expr) {
		tx := info.Types[x].Type
		if call, ok := x.(*ast.CallExpr); ok && len(call.Args) == 1 && info.Types[call.Fun].IsType() {
			tx = info.Types[call.Args[0]].Type // any(s).(T)
		}
		tt := info.Types[target].Type
		if tx == nil || tt == nil || !types.IsInterface(tt) || !types.Implements(tx, session) {
			return
		}
		name := types.TypeString(tt, types.RelativeTo(pkg))
		found[name] = append(found[name], fset.Position(target.Pos()).String())
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeAssertExpr:
				if n.Type != nil {
					note(n.X, n.Type)
				}
			case *ast.TypeSwitchStmt:
				var x ast.Expr
				switch a := n.Assign.(type) {
				case *ast.AssignStmt:
					x = a.Rhs[0].(*ast.TypeAssertExpr).X
				case *ast.ExprStmt:
					x = a.X.(*ast.TypeAssertExpr).X
				}
				for _, c := range n.Body.List {
					for _, e := range c.(*ast.CaseClause).List {
						note(x, e)
					}
				}
				return true
			}
			return true
		})
	}
	var list []string
	for name, where := range found {
		list = append(list, name+" ("+strings.Join(where, ", ")+")")
	}
	slices.Sort(list)
	if _, ok := found["Prober"]; !ok {
		t.Fatalf("the scan found no assertion to Prober (it finds nothing?): %v", list)
	}
	if len(found) > maxOptionalInterfaces {
		t.Fatalf("core asserts %d optional interfaces on a BackendSession, more than %d: %s\n"+
			"fold the new question into Prober (docs/core.md, \"The backend contract\")",
			len(found), maxOptionalInterfaces, strings.Join(list, "; "))
	}
	t.Logf("optional backend session interfaces: %s", strings.Join(list, "; "))
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
