package main

import (
	"context"
	"flag"
	"io"
	"os"
	"strings"

	"github.com/agenttool/collab/release/internal/online"
	"github.com/agenttool/collab/release/internal/verify"
)

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// runVerify checks a release from local files, or with -online downloads
// them from the npm registry and the GitHub Release first, and prints what
// passed, what failed and what was not checked.
func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var in verify.Inputs
	var ghBundles stringList
	rootDir := fs.String("root", "", "checkout at the tag (default: found from the working directory)")
	fs.StringVar(&in.Tag, "tag", "", "release tag, vX.Y.Z (required)")
	fs.StringVar(&in.NPMTarball, "npm-tarball", "", "the tarball as npm serves it")
	fs.StringVar(&in.NPMIntegrity, "npm-integrity", "", "dist.integrity the registry reports")
	fs.StringVar(&in.ReleaseDir, "release-dir", "", "directory holding the GitHub Release assets")
	fs.StringVar(&in.TrustedRoot, "trusted-root", "", "Sigstore trusted_root.json to verify provenance against")
	fs.StringVar(&in.NPMBundle, "npm-bundle", "", "npm provenance Sigstore bundle")
	fs.Var(&ghBundles, "gh-bundle", "GitHub attestation bundle, JSON or JSON lines (repeatable)")
	fs.StringVar(&in.Expect.Repo, "repo", "agenttool/collab", "GitHub repository that must have built the release")
	fs.StringVar(&in.Expect.Workflow, "workflow", ".github/workflows/release.yml", "workflow that must have signed")
	fs.StringVar(&in.Expect.Commit, "commit", "", "commit the tag must point at (default: unchecked)")
	fs.StringVar(&in.Expect.Runner, "runner", "github-hosted", "runner environment named in npm's builder id")
	fs.BoolVar(&in.RunHost, "run-host", true, "run this platform's binary from the tarball with --version")
	useOnline := fs.Bool("online", false, "download the tarball, provenance, Release assets and attestations first")
	registry := fs.String("registry", "https://registry.npmjs.org", "npm registry for -online")
	github := fs.String("github", "https://github.com", "GitHub web URL for -online")
	api := fs.String("github-api", "https://api.github.com", "GitHub API URL for -online")
	if err := fs.Parse(args); err != nil {
		return err
	}
	in.GitHubBundles = ghBundles
	root, err := findRoot(*rootDir)
	if err != nil {
		return err
	}
	in.Root = root
	if *useOnline {
		dir, err := os.MkdirTemp("", "release-verify-online-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		if in.TrustedRoot == "" {
			if in.TrustedRoot, err = online.PublicGoodTrustedRoot(dir); err != nil {
				return err
			}
		}
		err = online.Fetch(ctx, online.Config{
			Registry: *registry, GitHub: *github, API: *api, Token: os.Getenv("GITHUB_TOKEN"), Dir: dir,
		}, &in)
		if err != nil {
			return err
		}
	}
	r, err := verify.Run(ctx, in)
	if err != nil {
		return err
	}
	r.Write(stdout, "verify")
	if !r.OK() {
		return errFailed
	}
	return nil
}
