package field_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// parseDir parses the non-test Go files of one directory of the module.
func parseDir(t *testing.T, fset *token.FileSet, dir string, keep func(name string) bool) []*ast.File {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []*ast.File
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || !keep(name) {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}

// eachCall calls fn with the name of every called method or selector and
// its arguments.
func eachCall(files []*ast.File, fn func(owner, name string, args []ast.Expr)) {
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				owner := ""
				if id, ok := sel.X.(*ast.Ident); ok {
					owner = id.Name
				}
				fn(owner, sel.Sel.Name, call.Args)
			}
			return true
		})
	}
}

// isLimitLiteral reports whether e is a number literal other than 0 (zero
// or more is no limit) or a string literal.
func isLimitLiteral(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && (lit.Kind == token.STRING || (lit.Kind == token.INT && lit.Value != "0"))
}

// TestNoToolSchemaWritesALimit fails when a tool definition of the MCP
// face states a length, range, count or pattern as a literal: each must
// come from a row of this table (or, for the few bounds the table does
// not hold, from the named constant that owns them).
func TestNoToolSchemaWritesALimit(t *testing.T) {
	fset := token.NewFileSet()
	files := parseDir(t, fset, filepath.Join("..", "..", "hosts", "mcp"), func(name string) bool {
		return strings.HasPrefix(name, "defs") || name == "fields.go"
	})
	if len(files) < 5 {
		t.Fatalf("found %d definition files in hosts/mcp; the scan lost its way", len(files))
	}
	builders := map[string]bool{"min": true, "max": true, "length": true, "matching": true, "atLeast": true, "atMost": true, "above": true}
	searchOwned := searchOwnedArguments(files)
	calls := 0
	eachCall(files, func(_, name string, args []ast.Expr) {
		if !builders[name] || len(args) != 1 || searchOwned(args[0].Pos()) {
			return
		}
		calls++
		if isLimitLiteral(args[0]) {
			t.Errorf("%s: .%s(%s) writes a limit; read it from core/field", fset.Position(args[0].Pos()), name, args[0].(*ast.BasicLit).Value)
		}
	})
	if calls < 20 {
		t.Fatalf("saw %d schema bound calls; the scan lost its way", calls)
	}
}

// searchOwnedArguments reports the positions inside an argument whose
// schema reads its bound from core/search (the query and the page of
// hits, which the search index enforces and owns); only there may the
// lower bound 1 be written beside it.
func searchOwnedArguments(files []*ast.File) func(token.Pos) bool {
	var spans [][2]token.Pos
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || len(lit.Elts) != 2 || !mentions(lit.Elts[1], "search") {
				return true
			}
			spans = append(spans, [2]token.Pos{lit.Pos(), lit.End()})
			return false
		})
	}
	return func(p token.Pos) bool {
		for _, s := range spans {
			if s[0] <= p && p < s[1] {
				return true
			}
		}
		return false
	}
}

// mentions reports whether e selects anything from package pkg.
func mentions(e ast.Expr, pkg string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == pkg {
				found = true
			}
		}
		return !found
	})
	return found
}

// TestNoStoreCheckWritesALimit fails when the store checks text against a
// length written where it is called (normalize.CleanText or OptionalText
// with a literal) instead of through a row (normalize.Text, Optional).
func TestNoStoreCheckWritesALimit(t *testing.T) {
	fset := token.NewFileSet()
	files := parseDir(t, fset, filepath.Join("..", "store"), func(string) bool { return true })
	rows := 0
	eachCall(files, func(owner, name string, args []ast.Expr) {
		if owner != "normalize" {
			return
		}
		switch name {
		case "Text", "Optional":
			rows++
		case "CleanText", "OptionalText":
			if len(args) == 3 && isLimitLiteral(args[2]) {
				t.Errorf("%s: normalize.%s with the length %s; give it a row of core/field", fset.Position(args[2].Pos()), name, args[2].(*ast.BasicLit).Value)
			}
		}
	})
	if rows < 30 {
		t.Fatalf("saw %d store checks through the table; the scan lost its way", rows)
	}
}
