// Package verify checks a published release offline, from local copies of
// the npm tarball and the GitHub Release assets: that they are the same
// bytes, that the package is exactly what npm/files.txt says with the right
// modes and no install hooks, that its binaries are the archives' binaries,
// and that npm provenance and GitHub attestations were signed by the release
// workflow for exactly these files. Every check is reported, and so is what
// was not checked.
package verify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agenttool/collab/release/internal/checksums"
	"github.com/agenttool/collab/release/internal/manifest"
	"github.com/agenttool/collab/release/internal/pack"
	"github.com/agenttool/collab/release/internal/pkgjson"
	"github.com/agenttool/collab/release/internal/provenance"
	"github.com/agenttool/collab/release/internal/report"
	"github.com/agenttool/collab/release/internal/version"
)

// Inputs names the files to check and what they must say.
type Inputs struct {
	Tag           string            // vX.Y.Z
	Root          string            // checkout at the tag (npm/files.txt, npm/package.json)
	NPMTarball    string            // the tarball as the registry serves it
	NPMIntegrity  string            // dist.integrity from the registry; empty: not checked
	ReleaseDir    string            // the GitHub Release's assets
	TrustedRoot   string            // trusted_root.json; empty: provenance not checked
	NPMBundle     string            // npm provenance bundle
	GitHubBundles []string          // attestation bundles (JSON or JSON lines)
	Expect        provenance.Expect // Repo, Workflow, Commit, Runner; Ref comes from Tag
	RunHost       bool              // run the host platform's binary for --version
}

// release is what the checks share once the inputs are read.
type release struct {
	in       Inputs
	version  string
	template pkgjson.Package
	files    manifest.List
	npm      pack.Contents
	sums     checksums.File
	tgzName  string
}

// Run performs every check it can and returns the report; an error means
// the inputs could not be read at all.
func Run(ctx context.Context, in Inputs) (*report.Report, error) {
	r := &report.Report{}
	rel, err := load(in)
	if err != nil {
		return nil, err
	}
	checkIdentity(r, rel)
	checkPackage(r, rel)
	checkBinaries(ctx, r, rel)
	checkProvenance(r, rel)
	r.Skip("the source at the tag", "only who built the files and from which commit is checked, not what the code does")
	r.Skip("what other users are served", "the registry and the Release were read once, from here")
	r.Skip("npm's own publish attestation", "it is signed with the registry's keys, which this tool does not pin")
	return r, nil
}

func load(in Inputs) (*release, error) {
	v, err := version.FromTag(in.Tag)
	if err != nil {
		return nil, err
	}
	in.Expect.Ref = version.Ref(in.Tag)
	tmplData, err := os.ReadFile(filepath.Join(in.Root, manifest.Template))
	if err != nil {
		return nil, fmt.Errorf("read package.json template: %w", err)
	}
	tmpl, err := pkgjson.Decode(tmplData)
	if err != nil {
		return nil, err
	}
	list, err := manifest.Load(in.Root)
	if err != nil {
		return nil, err
	}
	files, err := list.Resolve(in.Root)
	if err != nil {
		return nil, err
	}
	npm, err := pack.ReadNPM(in.NPMTarball)
	if err != nil {
		return nil, fmt.Errorf("read npm tarball: %w", err)
	}
	sums, err := checksums.Load(filepath.Join(in.ReleaseDir, "checksums.txt"))
	if err != nil {
		return nil, err
	}
	return &release{
		in: in, version: v, template: tmpl, files: files, npm: npm, sums: sums,
		tgzName: pkgjson.TarballName(tmpl.Name, v),
	}, nil
}
