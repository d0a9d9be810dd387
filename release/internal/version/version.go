// Package version checks release versions and converts between a git tag
// (v1.2.3) and the version stamped into the binary and package.json (1.2.3).
package version

import (
	"fmt"
	"regexp"
	"strings"
)

// semver is the Semantic Versioning 2.0.0 grammar (no leading "v").
var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
	`(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?` +
	`(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// Check returns an error unless v is a semantic version without a leading "v".
func Check(v string) error {
	if !semver.MatchString(v) {
		return fmt.Errorf("version %q is not a semantic version like 1.2.3", v)
	}
	return nil
}

// FromTag returns the version a release tag names: "v1.2.3" gives "1.2.3".
// Tags without the leading "v" or with an invalid version are refused.
func FromTag(tag string) (string, error) {
	v, ok := strings.CutPrefix(tag, "v")
	if !ok {
		return "", fmt.Errorf("tag %q: release tags start with v, like v1.2.3", tag)
	}
	if err := Check(v); err != nil {
		return "", fmt.Errorf("tag %q: %w", tag, err)
	}
	return v, nil
}

// Ref returns the full git ref of a release tag ("refs/tags/v1.2.3").
func Ref(tag string) string { return "refs/tags/" + tag }
