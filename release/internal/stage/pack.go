package stage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"

	"github.com/agenttool/collab/release/internal/digest"
)

// Packed is the tarball `npm pack` wrote and what npm reported about it.
type Packed struct {
	File      string   // absolute path of the .tgz
	Integrity string   // npm's SRI string
	Files     []string // paths npm put in the tarball, sorted
	Sums      digest.Sums
}

// packReport is the part of `npm pack --json` output used here.
type packReport struct {
	Filename  string `json:"filename"`
	Integrity string `json:"integrity"`
	Files     []struct {
		Path string `json:"path"`
	} `json:"files"`
}

// Pack runs `npm pack` once in the staged root, writing the tarball into
// dest, and checks that npm packed exactly the staged files and that its
// integrity string is the sha512 of the file on disk.
func Pack(ctx context.Context, s Staged, dest string) (Packed, error) {
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return Packed{}, err
	}
	absDest, err := filepath.Abs(dest)
	if err != nil {
		return Packed{}, err
	}
	cmd := exec.CommandContext(ctx, "npm", "pack", "--json", "--ignore-scripts", "--pack-destination", absDest)
	cmd.Dir = s.Dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return Packed{}, fmt.Errorf("npm pack: %w: %s", err, stderr.String())
	}
	var reports []packReport
	if err := json.Unmarshal(out, &reports); err != nil || len(reports) != 1 {
		return Packed{}, fmt.Errorf("npm pack --json printed %q: %v", out, err)
	}
	r := reports[0]
	p := Packed{File: filepath.Join(absDest, r.Filename), Integrity: r.Integrity}
	for _, f := range r.Files {
		p.Files = append(p.Files, f.Path)
	}
	slices.Sort(p.Files)
	if want := s.Files.Paths(); !slices.Equal(p.Files, want) {
		return Packed{}, fmt.Errorf("npm packed %v, want exactly %v", p.Files, want)
	}
	if p.Sums, err = digest.File(p.File); err != nil {
		return Packed{}, err
	}
	if p.Sums.Integrity() != p.Integrity {
		return Packed{}, fmt.Errorf("npm reports integrity %s but the file has %s", p.Integrity, p.Sums.Integrity())
	}
	return p, nil
}
