package online

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sigstore/sigstore-go/pkg/root"
)

// PublicGoodTrustedRoot fetches the public-good Sigstore trusted root through
// its TUF repository (which verifies it against TUF's embedded root of
// trust) and writes it to dir/trusted_root.json. Public repositories sign
// both npm provenance and GitHub attestations with this instance.
func PublicGoodTrustedRoot(dir string) (string, error) {
	tr, err := root.FetchTrustedRoot()
	if err != nil {
		return "", fmt.Errorf("fetch the Sigstore trusted root: %w", err)
	}
	data, err := tr.MarshalJSON()
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "trusted_root.json")
	return path, os.WriteFile(path, data, 0o644)
}
