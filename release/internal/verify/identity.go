package verify

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agenttool/collab/release/internal/digest"
	"github.com/agenttool/collab/release/internal/report"
)

// checkIdentity: the npm tarball and the Release copy are the same bytes,
// checksums.txt lists the tarball and matches every Release file, and npm's
// integrity string is the tarball's sha512.
func checkIdentity(r *report.Report, rel *release) {
	npmSums, err := digest.File(rel.in.NPMTarball)
	if err != nil {
		r.Add("read the npm tarball", err)
		return
	}
	relSums, err := digest.File(filepath.Join(rel.in.ReleaseDir, rel.tgzName))
	if err == nil && relSums.SHA256 != npmSums.SHA256 {
		err = fmt.Errorf("npm tarball sha256 %s, Release copy %s", npmSums.SHA256Hex(), relSums.SHA256Hex())
	}
	r.Add("npm tarball and Release copy "+rel.tgzName+" are the same bytes", err)

	err = nil
	if got, ok := rel.sums[rel.tgzName]; !ok {
		err = fmt.Errorf("checksums.txt has no line for %s", rel.tgzName)
	} else if got != npmSums.SHA256Hex() {
		err = fmt.Errorf("checksums.txt says %s, tarball is %s", got, npmSums.SHA256Hex())
	}
	r.Add("checksums.txt lists the tarball's sha256", err)
	r.Add("every Release file matches checksums.txt", checkReleaseFiles(rel))

	if rel.in.NPMIntegrity == "" {
		r.Skip("npm registry integrity", "no dist.integrity was given (offline run)")
		return
	}
	err = nil
	if rel.in.NPMIntegrity != npmSums.Integrity() {
		err = fmt.Errorf("registry says %s, tarball is %s", rel.in.NPMIntegrity, npmSums.Integrity())
	}
	r.Add("npm integrity is the tarball's sha512", err)
}

// bundleFile reports whether a Release file is an attestation bundle, which
// is signed over the other files and so not listed in checksums.txt.
func bundleFile(name string) bool {
	return strings.HasSuffix(name, ".sigstore.json") || strings.HasSuffix(name, ".jsonl")
}

func checkReleaseFiles(rel *release) error {
	entries, err := os.ReadDir(rel.in.ReleaseDir)
	if err != nil {
		return err
	}
	var unlisted []string
	for _, e := range entries {
		name := e.Name()
		if name == "checksums.txt" || bundleFile(name) {
			continue
		}
		if _, ok := rel.sums[name]; !ok {
			unlisted = append(unlisted, name)
		}
	}
	if len(unlisted) > 0 {
		return fmt.Errorf("not in checksums.txt: %s", strings.Join(unlisted, ", "))
	}
	for _, name := range slices.Sorted(maps.Keys(rel.sums)) {
		s, err := digest.File(filepath.Join(rel.in.ReleaseDir, name))
		if err != nil {
			return err
		}
		if s.SHA256Hex() != rel.sums[name] {
			return fmt.Errorf("%s has sha256 %s, checksums.txt says %s", name, s.SHA256Hex(), rel.sums[name])
		}
	}
	return nil
}
