package main

import (
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/agenttool/collab/"

// A layer rule: no non-test file of a package matching from imports a
// package matching to, unless the importer is listed in except.
type layerRule struct {
	why    string
	from   func(pkg string) bool
	to     func(pkg string) bool
	except []string
}

func under(prefix string) func(string) bool {
	return func(p string) bool { return p == prefix || strings.HasPrefix(p, prefix+"/") }
}

func oneOf(pkgs ...string) func(string) bool {
	return func(p string) bool {
		for _, q := range pkgs {
			if p == q {
				return true
			}
		}
		return false
	}
}

func not(f func(string) bool) func(string) bool { return func(p string) bool { return !f(p) } }

// face reports which people- or agent-facing face a package belongs to
// ("" when it belongs to none): the MCP face (stdio and HTTP), the
// people's CLI and the web view.
func face(p string) string {
	switch {
	case under("hosts/mcp")(p), under("hosts/httpserve")(p):
		return "mcp"
	case under("hosts/cli")(p):
		return "cli"
	case under("hosts/web")(p):
		return "web"
	}
	return ""
}

var engines = oneOf("core/store/sqlite", "core/store/postgres", "core/store/sqltx")

// layerRules are the import rules docs/architecture.md draws.
var layerRules = []layerRule{
	{why: "cmd stays thin: it imports only hosts packages", from: under("cmd"), to: not(under("hosts"))},
	{why: "core knows nothing of hosts or cmd", from: under("core"), to: func(p string) bool { return under("hosts")(p) || under("cmd")(p) }},
	{why: "the rules never reach the engines; the engines import the domain", from: under("core"),
		to: engines, except: []string{"core/backend", "core/store/sqlite", "core/store/postgres", "core/store/transfer"}},
	{why: "only the engines run the shared SQL", from: not(oneOf("core/store/sqlite", "core/store/postgres")),
		to: oneOf("core/store/sqltx")},
	{why: "hosts open a database through core/backend, never an engine", from: under("hosts"), to: engines},
	{why: "the domain never opens an engine: core/backend sits above it", from: under("core/store"), to: oneOf("core/backend")},
	{why: "the table of input fields is a leaf every layer may read", from: oneOf("core/field"), to: func(string) bool { return true }},
}

// importersOfTheDomain must import core/store: the engines take the
// records and the storage port from the domain, never the reverse.
var importersOfTheDomain = []string{"core/store/sqlite", "core/store/postgres", "core/store/sqltx", "core/backend"}

type listed struct {
	ImportPath string
	Imports    []string
}

// TestPackagesKeepTheirLayers checks every package of the module against
// the import rules of docs/architecture.md, and that no face (MCP, the
// people's CLI, the web view) imports another.
func TestPackagesKeepTheirLayers(t *testing.T) {
	pkgs := listModule(t)
	if len(pkgs) < 30 {
		t.Fatalf("go list found %d packages; expected the whole module", len(pkgs))
	}
	byPath := map[string][]string{}
	for _, p := range pkgs {
		byPath[p.ImportPath] = p.Imports
	}
	for _, e := range importersOfTheDomain {
		if !slices.Contains(byPath[e], "core/store") {
			t.Errorf("%s does not import core/store: the engines take their records and port from the domain", e)
		}
	}
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			for _, r := range layerRules {
				if r.from(p.ImportPath) && r.to(imp) && !oneOf(r.except...)(p.ImportPath) {
					t.Errorf("%s imports %s: %s", p.ImportPath, imp, r.why)
				}
			}
			if f, g := face(p.ImportPath), face(imp); f != "" && g != "" && f != g {
				t.Errorf("%s imports %s: the %s face must not import the %s face", p.ImportPath, imp, f, g)
			}
		}
	}
}

func listModule(t *testing.T) []listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports", "./...")
	cmd.Dir = "../.."
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listed
	dec := json.NewDecoder(out)
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("reading go list: %v", err)
		}
		p.ImportPath = strings.TrimPrefix(p.ImportPath, module)
		var own []string
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, module) {
				own = append(own, strings.TrimPrefix(imp, module))
			}
		}
		p.Imports = own
		pkgs = append(pkgs, p)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("go list: %v", err)
	}
	return pkgs
}
