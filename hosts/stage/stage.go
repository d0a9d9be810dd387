// Package stage lays out a local plugin root from a checkout: the npm
// package's files as npm/files.txt lists them, with one server binary, the
// one for this machine, so Claude Code and Codex can install the plugin
// offline from a folder, before (or without) a published release.
package stage

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/agenttool/collab/hosts/plugin"
)

// FileList is where the package's file list sits in a checkout.
const FileList = "npm/files.txt"

// Options says what to stage and where.
type Options struct {
	Checkout string // repository root holding npm/files.txt
	Dir      string // the plugin root to write (created; an earlier stage is replaced)
	Binary   string // the server executable to copy in for GOOS/GOARCH
	Version  string // the binary's version, written into every manifest
	GOOS     string // this machine's platform, as runtime.GOOS
	GOARCH   string // and runtime.GOARCH
}

// Result lists what Stage wrote.
type Result struct {
	Dir   string   `json:"dir"`
	Files []string `json:"files"` // package paths, slash-separated, in files.txt order
}

// manifests carry the plugin version; Stage rewrites it to the binary's so
// the hosts cache each build under its own version and doctor finds the
// manifests in agreement with the binary.
var manifests = map[string]bool{
	".claude-plugin/plugin.json":       true,
	".claude-plugin/marketplace.json":  true,
	".codex-plugin/plugin.json":        true,
	".agents/plugins/marketplace.json": true,
}

// Stage writes the plugin root. Each file is written beside its final
// name and renamed over it, so a host running the previous stage's binary
// keeps running while the new one lands. It refuses a non-empty folder
// that is not an earlier stage.
func Stage(o Options) (Result, error) {
	entries, err := readList(filepath.Join(o.Checkout, filepath.FromSlash(FileList)))
	if err != nil {
		return Result{}, err
	}
	if err := checkTarget(o.Dir); err != nil {
		return Result{}, err
	}
	res := Result{Dir: o.Dir}
	var pkgJSON *entry
	for i := range entries {
		e := &entries[i]
		data, ok, err := o.contents(*e)
		if err != nil {
			return Result{}, err
		}
		if !ok {
			continue
		}
		if e.source == "package.json" {
			pkgJSON = e
			res.Files = append(res.Files, e.path)
			continue
		}
		if err := writeFile(filepath.Join(o.Dir, filepath.FromSlash(e.path)), data, e.mode); err != nil {
			return Result{}, err
		}
		res.Files = append(res.Files, e.path)
	}
	if pkgJSON != nil {
		data, err := o.packageJSON(res.Files)
		if err != nil {
			return Result{}, err
		}
		if err := writeFile(filepath.Join(o.Dir, "package.json"), data, pkgJSON.mode); err != nil {
			return Result{}, err
		}
	}
	return res, nil
}

// contents returns one entry's bytes; ok is false for an entry this stage
// leaves out (another platform's binary, an optional file not written yet).
func (o Options) contents(e entry) (data []byte, ok bool, err error) {
	switch {
	case e.source == "package.json":
		return nil, true, nil
	case strings.HasPrefix(e.source, "go:"):
		if e.source != "go:"+o.GOOS+"/"+o.GOARCH {
			return nil, false, nil
		}
		data, err = os.ReadFile(o.Binary)
		if err != nil {
			return nil, false, fmt.Errorf("read the server binary: %w", err)
		}
		return data, true, nil
	}
	data, err = os.ReadFile(filepath.Join(o.Checkout, filepath.FromSlash(e.source)))
	if errors.Is(err, os.ErrNotExist) && e.optional {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s lists %s: %w", FileList, e.source, err)
	}
	if manifests[e.path] {
		data = withVersion(data, o.Version)
	}
	return data, true, nil
}

var versionField = regexp.MustCompile(`("version"\s*:\s*)"` + regexp.QuoteMeta(plugin.Version) + `"`)

// withVersion replaces the plugin version in a manifest's "version" fields.
func withVersion(data []byte, version string) []byte {
	return versionField.ReplaceAll(data, []byte(`${1}"`+version+`"`))
}

// packageJSON renders npm/package.json with the version and file list, the
// way the release fills them in.
func (o Options) packageJSON(files []string) ([]byte, error) {
	tmpl, err := os.ReadFile(filepath.Join(o.Checkout, "npm", "package.json"))
	if err != nil {
		return nil, fmt.Errorf("read the package.json template: %w", err)
	}
	quoted := make([]string, len(files))
	for i, f := range files {
		quoted[i] = strconv.Quote(f)
	}
	out := bytes.Replace(tmpl, []byte(`"version": "0.0.0-template"`), []byte(`"version": `+strconv.Quote(o.Version)), 1)
	out = bytes.Replace(out, []byte(`"bin": {`), []byte(`"files": [`+"\n    "+strings.Join(quoted, ",\n    ")+"\n  ],\n  "+`"bin": {`), 1)
	return out, nil
}

// checkTarget accepts a missing or empty folder, or an earlier stage.
func checkTarget(dir string) error {
	names, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) || (err == nil && len(names) == 0) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("stage into %s: %w", dir, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".claude-plugin", "marketplace.json")); err != nil {
		return fmt.Errorf("%s is not empty and holds no earlier stage (.claude-plugin/marketplace.json); choose an empty or new folder", dir)
	}
	return nil
}

// writeFile writes data beside path and renames it into place.
func writeFile(path string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("stage %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("stage %s: %w", path, err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), mode)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("stage %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("stage %s: %w", path, err)
	}
	return nil
}
