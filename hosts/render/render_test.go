package render_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/hosts/render"
)

// repoRoot is the repository root, two levels above this package.
const repoRoot = "../.."

func TestGeneratedFilesAreCurrent(t *testing.T) {
	files, err := render.Render()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Errorf("%s: %v (run go generate ./hosts/render)", f.Path, err)
			continue
		}
		if !bytes.Equal(got, f.Data) {
			t.Errorf("%s is stale: run go generate ./hosts/render", f.Path)
		}
	}
}
