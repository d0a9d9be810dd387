// Package online downloads what `release verify -online` checks: the
// package version's metadata, tarball and provenance from the npm registry,
// the GitHub Release assets, and the GitHub attestations of each asset. The
// checks themselves are the offline ones, run on these copies.
package online

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agenttool/collab/release/internal/manifest"
	"github.com/agenttool/collab/release/internal/pkgjson"
	"github.com/agenttool/collab/release/internal/verify"
	"github.com/agenttool/collab/release/internal/version"
)

// Config says where to download from and to.
type Config struct {
	Registry string // npm registry base URL
	GitHub   string // GitHub web base URL (Release downloads)
	API      string // GitHub API base URL (attestations)
	Token    string // GitHub token for the API; optional
	Dir      string // download directory
	Client   *http.Client
}

// maxDownload bounds any one download (the tarball is about 30 MB).
const maxDownload = 512 << 20

// Fetch downloads everything for in.Tag and fills in the file fields of in
// (NPMTarball, NPMIntegrity, NPMBundle, ReleaseDir, GitHubBundles).
func Fetch(ctx context.Context, c Config, in *verify.Inputs) error {
	if c.Client == nil {
		c.Client = &http.Client{Timeout: 5 * time.Minute}
	}
	v, err := version.FromTag(in.Tag)
	if err != nil {
		return err
	}
	tmplData, err := os.ReadFile(filepath.Join(in.Root, manifest.Template))
	if err != nil {
		return err
	}
	tmpl, err := pkgjson.Decode(tmplData)
	if err != nil {
		return err
	}
	if err := c.fetchNPM(ctx, tmpl.Name, v, in); err != nil {
		return fmt.Errorf("npm registry: %w", err)
	}
	if err := c.fetchRelease(ctx, in); err != nil {
		return fmt.Errorf("GitHub Release: %w", err)
	}
	return nil
}

// get fetches url into memory, or into the file dst when dst is not empty.
func (c Config) get(ctx context.Context, rawURL, dst string, auth bool) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, err
	}
	if auth && c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	resp, err := c.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", rawURL, resp.Status)
	}
	body := io.LimitReader(resp.Body, maxDownload)
	if dst == "" {
		return io.ReadAll(body)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(dst)
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(f, body); err != nil {
		f.Close()
		return nil, fmt.Errorf("GET %s: %w", rawURL, err)
	}
	return nil, f.Close()
}

func (c Config) getJSON(ctx context.Context, rawURL string, auth bool, v any) error {
	data, err := c.get(ctx, rawURL, "", auth)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("GET %s: %w", rawURL, err)
	}
	return nil
}

func join(base string, parts ...string) string {
	return strings.TrimSuffix(base, "/") + "/" + strings.Join(parts, "/")
}

// escapeName writes a scoped package name as the registry's path wants it.
func escapeName(name string) string { return strings.Replace(url.PathEscape(name), "%40", "@", 1) }
