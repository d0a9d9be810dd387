package collaberr_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/golden"
)

// declaredCodes parses codes.go and returns every constant of type Code,
// by name, with its value.
func declaredCodes(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
				t.Errorf("constant %s in codes.go is not of type Code", vs.Names[0].Name)
				continue
			}
			for i, name := range vs.Names {
				value, err := strconv.Unquote(vs.Values[i].(*ast.BasicLit).Value)
				if err != nil {
					t.Fatal(err)
				}
				out[name.Name] = value
			}
		}
	}
	return out
}

var codeShape = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

func TestRegistryDescribesEveryDeclaredCodeOnce(t *testing.T) {
	declared := declaredCodes(t)
	values := map[string]bool{}
	for _, v := range declared {
		if values[v] {
			t.Errorf("two constants declare %q", v)
		}
		values[v] = true
	}
	seen := map[collaberr.Code]bool{}
	areas := map[string]bool{}
	lastArea := ""
	for _, e := range collaberr.Registry() {
		switch {
		case seen[e.Code]:
			t.Errorf("%s is registered twice", e.Code)
		case !values[string(e.Code)]:
			t.Errorf("%s is registered but has no constant in codes.go", e.Code)
		case !codeShape.MatchString(string(e.Code)):
			t.Errorf("%q is not a snake_case code", e.Code)
		case e.Area == "" || e.When == "" || e.Do == "":
			t.Errorf("%s lacks its area, when or what to do", e.Code)
		case strings.Contains(e.When+e.Do, "|") || strings.Contains(e.When+e.Do, "\n"):
			t.Errorf("%s: its text would break the Markdown table", e.Code)
		case e.Area != lastArea && areas[e.Area]:
			t.Errorf("%s: area %q is split in two", e.Code, e.Area)
		}
		seen[e.Code] = true
		areas[e.Area], lastArea = true, e.Area
		if _, ok := collaberr.Lookup(string(e.Code)); !ok {
			t.Errorf("Lookup(%q) misses a registered code", e.Code)
		}
	}
	for name, v := range declared {
		if !seen[collaberr.Code(v)] {
			t.Errorf("%s (%q) is declared but not in Registry", name, v)
		}
	}
	if _, ok := collaberr.Lookup("no_such_code"); ok {
		t.Error("Lookup finds an unregistered code")
	}
}

func TestErrorsDocIsCurrent(t *testing.T) {
	golden.Check(t, filepath.Join("..", "..", "docs", "errors.md"), []byte(collaberr.Markdown()))
}
