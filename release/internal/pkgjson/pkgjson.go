// Package pkgjson renders and checks the package.json of the npm package.
//
// The package must install with lifecycle scripts disabled and without
// dependencies (Codex fetches npm plugins that way, Claude Code copies only the
// package folder), so the fields that could pull in code at install time are
// not part of the type at all: the template is decoded strictly and a template
// or published file carrying them is refused.
package pkgjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// Package is the whole of the package.json the release writes. Field order is
// the order of the rendered file.
type Package struct {
	Name          string            `json:"name"`
	Version       string            `json:"version"`
	Description   string            `json:"description,omitempty"`
	Keywords      []string          `json:"keywords,omitempty"`
	Homepage      string            `json:"homepage,omitempty"`
	Bugs          *Bugs             `json:"bugs,omitempty"`
	License       string            `json:"license"`
	Repository    Repository        `json:"repository"`
	Bin           map[string]string `json:"bin"`
	Files         []string          `json:"files"`
	OS            []string          `json:"os,omitempty"`
	CPU           []string          `json:"cpu,omitempty"`
	PublishConfig *PublishConfig    `json:"publishConfig,omitempty"`
}

// Bugs is package.json "bugs".
type Bugs struct {
	URL string `json:"url"`
}

// Repository is package.json "repository". npm refuses a provenance publish
// whose repository URL does not name the repository that built it.
type Repository struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// PublishConfig is package.json "publishConfig".
type PublishConfig struct {
	Access     string `json:"access,omitempty"`
	Provenance bool   `json:"provenance,omitempty"`
}

// forbidden are the keys that would make an install run or fetch code.
var forbidden = []string{
	"scripts", "dependencies", "optionalDependencies", "peerDependencies",
	"bundleDependencies", "bundledDependencies", "devDependencies", "gypfile",
}

// Decode parses a package.json, refusing unknown keys and any key that runs
// or installs code.
func Decode(data []byte) (Package, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return Package{}, fmt.Errorf("package.json: %w", err)
	}
	for _, k := range forbidden {
		if _, ok := raw[k]; ok {
			return Package{}, fmt.Errorf("package.json has %q: the package must install without scripts or dependencies", k)
		}
	}
	var p Package
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Package{}, fmt.Errorf("package.json: %w", err)
	}
	if p.Name == "" || p.License == "" || p.Repository.URL == "" || len(p.Bin) == 0 {
		return Package{}, fmt.Errorf("package.json: name, license, repository.url and bin are required")
	}
	return p, nil
}

// Render returns the package.json of a release: the template with version and
// files filled in, files sorted, indented by two spaces and ending in a
// newline as npm writes it.
func Render(template Package, version string, files []string) ([]byte, error) {
	p := template
	p.Version = version
	p.Files = slices.Sorted(slices.Values(files))
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(p); err != nil {
		return nil, fmt.Errorf("render package.json: %w", err)
	}
	return buf.Bytes(), nil
}

// PURL returns the package URL that npm puts in the subject of its provenance
// statement: pkg:npm/<name>@<version> with the scope's "@" written %40.
func PURL(name, version string) string {
	if len(name) > 0 && name[0] == '@' {
		name = "%40" + name[1:]
	}
	return "pkg:npm/" + name + "@" + version
}

// TarballName returns the file name `npm pack` gives the package:
// "@scope/name" becomes "scope-name-<version>.tgz".
func TarballName(name, version string) string {
	if len(name) > 0 && name[0] == '@' {
		name = name[1:]
	}
	out := []byte(name)
	for i, c := range out {
		if c == '/' {
			out[i] = '-'
		}
	}
	return string(out) + "-" + version + ".tgz"
}
