package collaberr_test

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
)

// sourceFile is one parsed non-test Go file of the module.
type sourceFile struct {
	pkg     string            // package clause name
	imports map[string]string // local name -> import path
	ast     *ast.File
	dir     string // slash path of its directory, relative to the root
}

// parseTree parses every non-test Go file under root, skipping testdata
// and hidden directories.
func parseTree(t *testing.T, fset *token.FileSet, root string) []sourceFile {
	t.Helper()
	var out []sourceFile
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		sf := sourceFile{pkg: f.Name.Name, imports: map[string]string{}, ast: f, dir: filepath.ToSlash(rel)}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			local := path.Base(ip)
			if imp.Name != nil {
				local = imp.Name.Name
			}
			sf.imports[local] = ip
		}
		out = append(out, sf)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

const (
	collaberrPath = "github.com/agenttool/collab/core/collaberr"
	fieldPath     = "github.com/agenttool/collab/core/field"
)

// isFieldType reports whether expr names field.Field in file f.
func (f sourceFile) isFieldType(expr ast.Expr) bool {
	sel, ok := expr.(*ast.SelectorExpr)
	return ok && f.imports[identName(sel.X)] == fieldPath && sel.Sel.Name == "Field"
}

// fieldRows maps the name of each constant of package field to its row,
// by type-checking that package's files (it imports nothing, so no
// importer is needed).
func fieldRows(t *testing.T, fset *token.FileSet, files []sourceFile) map[string]field.Field {
	t.Helper()
	var asts []*ast.File
	for _, f := range files {
		if f.dir == "core/field" {
			asts = append(asts, f.ast)
		}
	}
	pkg, err := new(types.Config).Check(fieldPath, fset, asts, nil)
	if err != nil {
		t.Fatalf("type-check core/field: %v", err)
	}
	rows := map[string]field.Field{}
	for _, name := range pkg.Scope().Names() {
		if c, ok := pkg.Scope().Lookup(name).(*types.Const); ok && c.Type().String() == fieldPath+".Field" {
			if v, exact := constant.Uint64Val(c.Val()); exact {
				rows[name] = field.Field(v)
			}
		}
	}
	return rows
}

// isCodeType reports whether expr names collaberr.Code in file f.
func (f sourceFile) isCodeType(expr ast.Expr) bool {
	switch x := expr.(type) {
	case *ast.Ident:
		return f.dir == "core/collaberr" && x.Name == "Code"
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		return ok && f.imports[id.Name] == collaberrPath && x.Sel.Name == "Code"
	}
	return false
}

// isStringType reports whether expr is the type string.
func isStringType(expr ast.Expr) bool {
	id, ok := expr.(*ast.Ident)
	return ok && id.Name == "string"
}

// funcKey names a function the way calls to it are resolved below:
// "<import path>.<name>" for a top-level function, ".<name>" for a method.
func funcKey(dirPath string, fn *ast.FuncDecl) string {
	if fn.Recv != nil {
		return "." + fn.Name.Name
	}
	return dirPath + "." + fn.Name.Name
}

// callKey resolves a call's callee to a funcKey; "" when it cannot.
func (f sourceFile) callKey(call *ast.CallExpr, module string) string {
	switch fun := call.Fun.(type) {
	case *ast.Ident:
		return module + "/" + f.dir + "." + fun.Name
	case *ast.SelectorExpr:
		if id, ok := fun.X.(*ast.Ident); ok {
			if ip, ok := f.imports[id.Name]; ok {
				return ip + "." + fun.Sel.Name
			}
		}
		return "." + fun.Sel.Name
	}
	return ""
}

// stringLiteral returns the first string literal inside expr, if any.
func stringLiteral(expr ast.Expr) (*ast.BasicLit, bool) {
	var found *ast.BasicLit
	ast.Inspect(expr, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && found == nil {
			found = lit
		}
		return found == nil
	})
	return found, found != nil
}

// TestEveryEmittedCodeIsRegistered scans the module's source (tests
// excluded) for every way a refusal code can be chosen, and fails when one
// is a string literal rather than a registered constant:
//   - an argument of every function or method that takes a collaberr.Code
//     (collaberr.New, Newf and HasCode among them), and of every
//     conversion to collaberr.Code;
//   - a variable, constant, map key or return value typed collaberr.Code;
//   - the Code field of a collaberr.Error literal.
//
// The invalid_<field> family is chosen by a field name (collaberr.Invalid):
// every string literal passed to a string parameter named field must name
// a registered invalid_<field> code.
func TestEveryEmittedCodeIsRegistered(t *testing.T) {
	const module = "github.com/agenttool/collab"
	fset := token.NewFileSet()
	files := parseTree(t, fset, filepath.Join("..", ".."))
	registered := map[string]bool{}
	for _, e := range collaberr.Registry() {
		registered[string(e.Code)] = true
	}

	// Which parameters take a code, and which take a field name.
	codeParams := map[string][]int{}
	fieldParams := map[string][]int{}
	rowParams := map[string][]int{} // normalize functions taking a row of the field table
	rows := fieldRows(t, fset, files)
	for _, f := range files {
		dirPath := module + "/" + f.dir
		for _, d := range f.ast.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			i := 0
			for _, field := range fn.Type.Params.List {
				n := max(len(field.Names), 1)
				for j := 0; j < n; j++ {
					switch {
					case f.isCodeType(field.Type):
						codeParams[funcKey(dirPath, fn)] = append(codeParams[funcKey(dirPath, fn)], i)
					case isStringType(field.Type) && len(field.Names) > 0 && field.Names[j].Name == "field":
						fieldParams[funcKey(dirPath, fn)] = append(fieldParams[funcKey(dirPath, fn)], i)
					case f.dir == "core/normalize" && f.isFieldType(field.Type):
						rowParams[funcKey(dirPath, fn)] = append(rowParams[funcKey(dirPath, fn)], i)
					}
					i++
				}
			}
		}
	}
	for _, want := range []string{collaberrPath + ".New", collaberrPath + ".Newf", collaberrPath + ".HasCode"} {
		if len(codeParams[want]) == 0 {
			t.Fatalf("the scan does not see %s take a Code; it would prove nothing", want)
		}
	}

	codeSites, fieldSites := 0, 0
	fail := func(pos token.Pos, format string, args ...any) {
		t.Helper()
		t.Errorf("%s: "+format, append([]any{fset.Position(pos)}, args...)...)
	}
	for _, f := range files {
		inCollaberr := f.dir == "core/collaberr"
		checkCode := func(expr ast.Expr, what string) {
			codeSites++
			if lit, ok := stringLiteral(expr); ok {
				fail(lit.Pos(), "%s is the string literal %s; use a collaberr constant (registered in core/collaberr/registry.go)", what, lit.Value)
			}
		}
		// checkRow checks a row of the field table handed to normalize:
		// its name chooses the invalid_<name> code of the refusal.
		checkRow := func(f sourceFile, arg ast.Expr, key string) {
			sel, ok := arg.(*ast.SelectorExpr)
			named := ok && f.imports[identName(sel.X)] == fieldPath
			if !named && f.dir == "core/normalize" {
				return // normalize handing on a row it was given; the lists' entries are checked below
			}
			if !named {
				fail(arg.Pos(), "the field passed to %s is not a row of the field table named as field.<Row>", key)
				return
			}
			row, ok := rows[sel.Sel.Name]
			if !ok {
				fail(arg.Pos(), "field.%s passed to %s is not a constant of package field", sel.Sel.Name, key)
				return
			}
			if code := collaberr.Invalid(row.Spec().Name); !registered[string(code)] {
				fail(arg.Pos(), "field.%s passed to %s refuses with %s, which is not registered", sel.Sel.Name, key, code)
			}
		}
		var results []*ast.FieldList
		ast.Inspect(f.ast, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncDecl:
				results = append(results[:0], x.Type.Results)
			case *ast.CallExpr:
				if len(x.Args) == 1 && f.isCodeType(x.Fun) && !inCollaberr {
					checkCode(x.Args[0], "a conversion to collaberr.Code")
				}
				key := f.callKey(x, module)
				for _, i := range codeParams[key] {
					if i < len(x.Args) {
						checkCode(x.Args[i], "the refusal code passed to "+key)
					}
				}
				for _, i := range fieldParams[key] {
					if i >= len(x.Args) {
						continue
					}
					lit, ok := x.Args[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					fieldSites++
					field, _ := strconv.Unquote(lit.Value)
					if code := collaberr.Invalid(field); !registered[string(code)] {
						fail(lit.Pos(), "field %q passed to %s refuses with %s, which is not registered", field, key, code)
					}
				}
				for _, i := range rowParams[key] {
					if i < len(x.Args) {
						fieldSites++
						checkRow(f, x.Args[i], key)
					}
				}
			case *ast.SelectorExpr:
				// normalize and scope refuse a bad entry of a list row they
				// read with the name of its entry row.
				row, ok := rows[x.Sel.Name]
				if ok && f.imports[identName(x.X)] == fieldPath && (f.dir == "core/normalize" || f.dir == "core/scope") && row.Spec().Kind == field.List {
					fieldSites++
					if code := collaberr.Invalid(row.Spec().Item.Spec().Name); !registered[string(code)] {
						fail(x.Pos(), "an entry of field.%s refuses with %s, which is not registered", x.Sel.Name, code)
					}
				}
			case *ast.ValueSpec:
				if x.Type != nil && f.isCodeType(x.Type) && !inCollaberr {
					for _, v := range x.Values {
						checkCode(v, "a collaberr.Code value")
					}
				}
			case *ast.CompositeLit:
				if m, ok := x.Type.(*ast.MapType); ok && f.isCodeType(m.Key) {
					for _, el := range x.Elts {
						checkCode(el.(*ast.KeyValueExpr).Key, "a map key of type collaberr.Code")
					}
				}
				if sel, ok := x.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Error" && f.imports[identName(sel.X)] == collaberrPath {
					for _, el := range x.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok && identName(kv.Key) == "Code" {
							checkCode(kv.Value, "the Code of a collaberr.Error literal")
						}
					}
				}
			case *ast.ReturnStmt:
				if len(results) == 0 || results[0] == nil || inCollaberr {
					return true
				}
				i := 0
				for _, r := range results[0].List {
					for j := 0; j < max(len(r.Names), 1); j++ {
						if f.isCodeType(r.Type) && i < len(x.Results) {
							checkCode(x.Results[i], "a returned collaberr.Code")
						}
						i++
					}
				}
			}
			return true
		})
	}
	// The tree builds well over a hundred refusals and validates dozens of
	// named fields; far fewer sites means the scan lost its way.
	if codeSites < 150 || fieldSites < 40 {
		t.Fatalf("the scan saw %d code sites and %d field sites; expected at least 150 and 40", codeSites, fieldSites)
	}
	t.Logf("checked %d code sites and %d field names in %d files", codeSites, fieldSites, len(files))
}

func identName(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
