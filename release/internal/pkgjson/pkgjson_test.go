package pkgjson

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTemplateDecodesAndRendersWithoutInstallHooks(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "npm", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := Decode(data)
	if err != nil {
		t.Fatalf("template: %v", err)
	}
	out, err := Render(tmpl, "1.2.3", []string{"bin/b", "README.md", "LICENSE"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Decode(out)
	if err != nil {
		t.Fatalf("rendered file does not decode: %v", err)
	}
	if p.Version != "1.2.3" || strings.Join(p.Files, ",") != "LICENSE,README.md,bin/b" {
		t.Errorf("rendered version %q files %v", p.Version, p.Files)
	}
	if !strings.HasSuffix(string(out), "}\n") || !strings.Contains(string(out), "\n  \"name\": ") {
		t.Errorf("rendered file is not npm-style JSON:\n%s", out)
	}
}

func TestDecodeRefusesScriptsDependenciesAndUnknownKeys(t *testing.T) {
	base := `"name":"@a/b","version":"1.0.0","license":"MIT","repository":{"type":"git","url":"x"},"bin":{"b":"b.js"},"files":[]`
	for _, extra := range []string{
		`"scripts":{"postinstall":"node x"}`,
		`"dependencies":{"x":"1"}`,
		`"optionalDependencies":{"x":"1"}`,
		`"bundleDependencies":["x"]`,
		`"main":"index.js"`,
	} {
		if _, err := Decode([]byte("{" + base + "," + extra + "}")); err == nil {
			t.Errorf("Decode accepted %s", extra)
		}
	}
	if _, err := Decode([]byte("{" + base + "}")); err != nil {
		t.Errorf("Decode refused a clean file: %v", err)
	}
}

func TestPURLAndTarballNameFollowNpm(t *testing.T) {
	tests := []struct{ name, purl, tgz string }{
		{"@agenttool/collab-mcp", "pkg:npm/%40agenttool/collab-mcp@1.2.3", "agenttool-collab-mcp-1.2.3.tgz"},
		{"plain", "pkg:npm/plain@1.2.3", "plain-1.2.3.tgz"},
	}
	for _, tt := range tests {
		if got := PURL(tt.name, "1.2.3"); got != tt.purl {
			t.Errorf("PURL(%q) = %q, want %q", tt.name, got, tt.purl)
		}
		if got := TarballName(tt.name, "1.2.3"); got != tt.tgz {
			t.Errorf("TarballName(%q) = %q, want %q", tt.name, got, tt.tgz)
		}
	}
}
