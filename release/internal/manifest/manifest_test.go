package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/release/internal/target"
)

const repoRoot = "../../.."

func TestRepositoryListParsesWithEveryBinaryAndLauncher(t *testing.T) {
	list, err := Load(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range target.All {
		p := "bin/" + tg.NPMPlatform() + "/" + tg.Exe()
		e, ok := list.Lookup(p)
		if !ok || e.Kind != Binary || e.Target != tg || e.Mode != 0o755 {
			t.Errorf("%s: entry %+v, found %v", p, e, ok)
		}
	}
	for _, p := range []string{"bin/agenttool-collab-mcp", "bin/agenttool-collab-mcp.cmd", "bin/agenttool-collab-mcp.js"} {
		if e, ok := list.Lookup(p); !ok || e.Mode != 0o755 || e.Kind != Copy {
			t.Errorf("launcher %s: entry %+v, found %v", p, e, ok)
		}
	}
	for _, p := range []string{"package.json", "README.md", "LICENSE", "NOTICE", "THIRD_PARTY_NOTICES.md"} {
		if e, ok := list.Lookup(p); !ok || e.Mode != 0o644 || e.Optional {
			t.Errorf("%s: entry %+v, found %v", p, e, ok)
		}
	}
}

func TestParseRefusesMalformedLists(t *testing.T) {
	valid, err := os.ReadFile(filepath.Join(repoRoot, Path))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, edit, want string }{
		{"duplicate path", "\nLICENSE 0644 LICENSE\n", "twice"},
		{"group-writable mode", "\nx.txt 0664 x.txt\n", "mode"},
		{"path escaping the package", "\n../x 0644 x\n", "clean relative"},
		{"absolute source", "\nx 0644 /etc/passwd\n", "clean relative"},
		{"unknown target", "\nbin/plan9/x 0755 go:plan9/amd64\n", "not a released platform"},
		{"second binary for a target", "\nbin/extra 0755 go:linux/amd64\n", "exactly one binary"},
		{"optional binary", "\nbin/extra 0755 go:linux/amd64 optional\n", "only copied files"},
		{"stray word", "\nx 0644 x maybe\n", "want <path>"},
	}
	for _, tt := range tests {
		_, err := Parse(append(append([]byte(nil), valid...), tt.edit...))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Parse error = %v, want it to mention %q", tt.name, err, tt.want)
		}
	}
	if _, err := Parse([]byte("LICENSE 0644 LICENSE\n")); err == nil {
		t.Error("Parse accepted a list without package.json and binaries")
	}
}

func TestResolveSkipsOnlyMissingOptionalSources(t *testing.T) {
	dir := t.TempDir()
	write := func(p string) {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte("x"), 0o644)
	}
	var b strings.Builder
	b.WriteString("package.json 0644 package.json\nLICENSE 0644 LICENSE\nskills/a.md 0644 skills/a.md optional\nskills/b.md 0644 skills/b.md optional\n")
	for _, tg := range target.All {
		b.WriteString("bin/" + tg.NPMPlatform() + "/" + tg.Exe() + " 0755 go:" + tg.String() + "\n")
	}
	list, err := Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	write("skills/a.md")
	if _, err := list.Resolve(dir); err == nil {
		t.Fatal("Resolve accepted a missing required LICENSE")
	}
	write("LICENSE")
	got, err := list.Resolve(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got.Lookup("skills/a.md"); !ok {
		t.Error("present optional file was dropped")
	}
	if _, ok := got.Lookup("skills/b.md"); ok {
		t.Error("missing optional file was kept")
	}
	if len(got) != len(list)-1 {
		t.Errorf("resolved %d entries, want %d", len(got), len(list)-1)
	}
}
