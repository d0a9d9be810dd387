package verify

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agenttool/collab/release/internal/checksums"
	"github.com/agenttool/collab/release/internal/digest"
	"github.com/agenttool/collab/release/internal/pkgjson"
	"github.com/agenttool/collab/release/internal/provenance"
	"github.com/agenttool/collab/release/internal/provenance/provenancetest"
)

// signing says how the fake release workflow signs; the zero value signs
// correctly.
type signing struct {
	signer     *provenancetest.Identity // certificate identity; nil: testSigner
	npmPURL    string                   // npm subject name; empty: the right purl
	npmPayload func([]byte) []byte      // edits the signed npm bundle afterwards
}

// sign writes the npm provenance bundle and one GitHub attestation bundle
// over every Release file, as the release workflow would, and returns their
// paths.
func (s signing) sign(t *testing.T, ss *provenancetest.Sigstore, dir, npmTgz string) (npmBundle, ghBundle string) {
	t.Helper()
	id := testSigner
	if s.signer != nil {
		id = *s.signer
	}
	purl := s.npmPURL
	if purl == "" {
		purl = pkgjson.PURL(testPackage, testVersion)
	}
	sums, err := digest.File(npmTgz)
	if err != nil {
		t.Fatal(err)
	}
	npmSt := provenancetest.Statement(provenance.NPM, id, []provenance.Subject{{Name: purl, Digest: map[string]string{"sha512": sums.SHA512Hex()}}})
	npmData, err := ss.Sign(id, provenancetest.Payload(npmSt))
	if err != nil {
		t.Fatal(err)
	}
	if s.npmPayload != nil {
		npmData = s.npmPayload(npmData)
	}

	relDir := filepath.Join(dir, "release")
	list, err := checksums.Load(filepath.Join(relDir, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var subjects []provenance.Subject
	names := append(slices.Sorted(maps.Keys(list)), "checksums.txt")
	for _, name := range names {
		d, err := digest.File(filepath.Join(relDir, name))
		if err != nil {
			t.Fatal(err)
		}
		subjects = append(subjects, provenance.Subject{Name: name, Digest: map[string]string{"sha256": d.SHA256Hex()}})
	}
	ghData, err := ss.Sign(id, provenancetest.Payload(provenancetest.Statement(provenance.GitHub, id, subjects)))
	if err != nil {
		t.Fatal(err)
	}
	npmBundle = filepath.Join(dir, "npm", "provenance.sigstore.json")
	ghBundle = filepath.Join(relDir, "attestation.intoto.jsonl")
	write(t, npmBundle, npmData)
	write(t, ghBundle, append(ghData, '\n'))
	return npmBundle, ghBundle
}

func trustedRootFile(t *testing.T, ss *provenancetest.Sigstore, dir string) string {
	t.Helper()
	data, err := ss.TrustedRootJSON()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "trusted_root.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
