package stage

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/agenttool/collab/release/internal/manifest"
)

// Staged files and folders get their listed modes whatever the umask and the
// source file's own mode, so the tarball cannot depend on either.
func TestPlaceNormalisesModesUnderAStrictUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)

	root, out := t.TempDir(), filepath.Join(t.TempDir(), "pkg")
	if err := os.MkdirAll(filepath.Join(root, "npm"), 0o700); err != nil {
		t.Fatal(err)
	}
	for name, mode := range map[string]fs.FileMode{"npm/launcher.sh": 0o700, "npm/notes.md": 0o600} {
		if err := os.WriteFile(filepath.Join(root, name), []byte("x"), mode); err != nil {
			t.Fatal(err)
		}
	}
	o := Options{Root: root, Out: out}
	entries := []manifest.Entry{
		{Path: "bin/agenttool-collab-mcp", Mode: 0o755, Kind: manifest.Copy, Source: "npm/launcher.sh"},
		{Path: "skills/deep/notes.md", Mode: 0o644, Kind: manifest.Copy, Source: "npm/notes.md"},
		{Path: "package.json", Mode: 0o644, Kind: manifest.PackageJSON},
	}
	for _, e := range entries {
		if err := place(o, e, []byte("{}\n"), nil); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]fs.FileMode{
		"bin/agenttool-collab-mcp": 0o755, "skills/deep/notes.md": 0o644, "package.json": 0o644,
		"bin": fs.ModeDir | 0o755, "skills": fs.ModeDir | 0o755, "skills/deep": fs.ModeDir | 0o755, ".": fs.ModeDir | 0o755,
	}
	for p, m := range want {
		fi, err := os.Stat(filepath.Join(out, p))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != m {
			t.Errorf("%s has mode %v, want %v", p, fi.Mode(), m)
		}
	}
}
