package online

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/agenttool/collab/release/internal/checksums"
	"github.com/agenttool/collab/release/internal/digest"
	"github.com/agenttool/collab/release/internal/verify"
)

// attestationsAPI is the GitHub attestations API answer for one digest.
type attestationsAPI struct {
	Attestations []struct {
		Bundle json.RawMessage `json:"bundle"`
	} `json:"attestations"`
}

// fetchRelease downloads checksums.txt and every file it lists from the
// Release, then the attestations of each of those files and of checksums.txt,
// written once each into one JSON-lines file.
func (c Config) fetchRelease(ctx context.Context, in *verify.Inputs) error {
	in.ReleaseDir = filepath.Join(c.Dir, "release")
	download := func(name string) (string, error) {
		dst := filepath.Join(in.ReleaseDir, name)
		_, err := c.get(ctx, join(c.GitHub, in.Expect.Repo, "releases/download", in.Tag, name), dst, false)
		return dst, err
	}
	sumsPath, err := download("checksums.txt")
	if err != nil {
		return err
	}
	sums, err := checksums.Load(sumsPath)
	if err != nil {
		return err
	}
	names := append(slices.Sorted(maps.Keys(sums)), "checksums.txt")
	var lines [][]byte
	for _, name := range names {
		path := filepath.Join(in.ReleaseDir, name)
		if name != "checksums.txt" {
			if path, err = download(name); err != nil {
				return err
			}
		}
		d, err := digest.File(path)
		if err != nil {
			return err
		}
		var api attestationsAPI
		if err := c.getJSON(ctx, join(c.API, "repos", in.Expect.Repo, "attestations", "sha256:"+d.SHA256Hex()), true, &api); err != nil {
			return err
		}
		for _, a := range api.Attestations {
			compact := new(bytes.Buffer)
			if err := json.Compact(compact, a.Bundle); err != nil {
				return err
			}
			if !slices.ContainsFunc(lines, func(l []byte) bool { return bytes.Equal(l, compact.Bytes()) }) {
				lines = append(lines, compact.Bytes())
			}
		}
	}
	bundles := filepath.Join(c.Dir, "attestations.jsonl")
	in.GitHubBundles = []string{bundles}
	return os.WriteFile(bundles, append(bytes.Join(lines, []byte("\n")), '\n'), 0o644)
}
