package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"

	"github.com/agenttool/collab/release/internal/digest"
	"github.com/agenttool/collab/release/internal/pkgjson"
	"github.com/agenttool/collab/release/internal/provenance"
	"github.com/agenttool/collab/release/internal/report"
)

// checkProvenance verifies the npm provenance bundle (one subject: the
// package URL with the tarball's sha512) and the GitHub attestation bundles,
// which together must cover every Release file listed in checksums.txt and
// checksums.txt itself, each by sha256, and nothing else.
func checkProvenance(r *report.Report, rel *release) {
	if rel.in.TrustedRoot == "" {
		r.Skip("npm provenance and GitHub attestations", "no trusted root was given")
		return
	}
	tr, err := root.NewTrustedRootFromPath(rel.in.TrustedRoot)
	if err != nil {
		r.Add("load the trusted root", err)
		return
	}
	e := rel.in.Expect
	if e.Commit == "" {
		r.Skip("source commit in provenance", "no expected commit was given")
	}
	if len(tr.CTLogs()) == 0 {
		r.Skip("certificate transparency (SCTs)", "the trusted root lists no CT log")
	}
	r.Add("npm provenance signed by "+e.Identity(), npmProvenance(rel, tr, e))
	r.Add("GitHub attestations signed by "+e.Identity()+" cover every Release file", githubAttestations(rel, tr, e))
}

func npmProvenance(rel *release, tr root.TrustedMaterial, e provenance.Expect) error {
	if rel.in.NPMBundle == "" {
		return fmt.Errorf("no npm provenance bundle was given")
	}
	bundles, err := loadBundles(rel.in.NPMBundle)
	if err != nil {
		return err
	}
	if len(bundles) != 1 {
		return fmt.Errorf("%s holds %d bundles, want one", rel.in.NPMBundle, len(bundles))
	}
	sums, err := digest.File(rel.in.NPMTarball)
	if err != nil {
		return err
	}
	want := []provenance.Subject{{
		Name:   pkgjson.PURL(rel.template.Name, rel.version),
		Digest: map[string]string{"sha512": sums.SHA512Hex()},
	}}
	_, err = provenance.Verify(tr, bundles[0], provenance.NPM, e, want)
	return err
}

func githubAttestations(rel *release, tr root.TrustedMaterial, e provenance.Expect) error {
	if len(rel.in.GitHubBundles) == 0 {
		return fmt.Errorf("no GitHub attestation bundle was given")
	}
	assets, err := releaseAssets(rel)
	if err != nil {
		return err
	}
	covered := map[string]bool{}
	for _, file := range rel.in.GitHubBundles {
		bundles, err := loadBundles(file)
		if err != nil {
			return err
		}
		for i, b := range bundles {
			want, err := claimedAssets(b, assets)
			if err != nil {
				return fmt.Errorf("%s bundle %d: %w", file, i+1, err)
			}
			if _, err := provenance.Verify(tr, b, provenance.GitHub, e, want); err != nil {
				return fmt.Errorf("%s bundle %d: %w", file, i+1, err)
			}
			for _, w := range want {
				covered[w.Name] = true
			}
		}
	}
	var missing []string
	for _, name := range slices.Sorted(maps.Keys(assets)) {
		if !covered[name] {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("no attestation for %s", strings.Join(missing, ", "))
	}
	return nil
}

// releaseAssets maps each attested Release file to its sha256: everything
// in checksums.txt, and checksums.txt itself.
func releaseAssets(rel *release) (map[string]string, error) {
	out := maps.Clone(map[string]string(rel.sums))
	s, err := digest.File(filepath.Join(rel.in.ReleaseDir, "checksums.txt"))
	if err != nil {
		return nil, err
	}
	out["checksums.txt"] = s.SHA256Hex()
	return out, nil
}

// claimedAssets returns, for the subjects a bundle's (not yet verified)
// statement names, the digests the Release files actually have. Verify then
// requires the signed statement to name exactly these with exactly these
// digests; a subject that is no Release file is refused here.
func claimedAssets(b *bundle.Bundle, assets map[string]string) ([]provenance.Subject, error) {
	st, err := provenance.ParseStatement(b.GetDsseEnvelope().GetPayload())
	if err != nil {
		return nil, err
	}
	var want []provenance.Subject
	for _, sub := range st.Subject {
		sum, ok := assets[sub.Name]
		if !ok {
			return nil, fmt.Errorf("attests %q, which is not a Release file", sub.Name)
		}
		want = append(want, provenance.Subject{Name: sub.Name, Digest: map[string]string{"sha256": sum}})
	}
	if len(want) == 0 {
		return nil, fmt.Errorf("attests no subject")
	}
	return want, nil
}

// loadBundles reads a Sigstore bundle file: one JSON bundle, or (named
// *.jsonl) JSON lines each holding a bundle or an object whose "bundle" field is one (the form
// the GitHub attestations API and `gh attestation download` use).
func loadBundles(path string) ([]*bundle.Bundle, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read bundle: %w", err)
	}
	lines := [][]byte{data}
	if strings.HasSuffix(path, ".jsonl") {
		lines = bytes.Split(data, []byte("\n"))
	}
	var out []*bundle.Bundle
	for _, line := range lines {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var wrapper struct {
			Bundle json.RawMessage `json:"bundle"`
		}
		if json.Unmarshal(line, &wrapper) == nil && len(wrapper.Bundle) > 0 {
			line = wrapper.Bundle
		}
		var b bundle.Bundle
		if err := b.UnmarshalJSON(line); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, &b)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no bundle", path)
	}
	return out, nil
}
