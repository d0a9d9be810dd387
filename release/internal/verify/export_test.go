package verify

import (
	"testing"

	"github.com/agenttool/collab/release/internal/provenance/provenancetest"
)

// BuildSignedRelease writes a correct fake release into dir (npm/ and
// release/) and signs it with ss, for tests outside this package.
func BuildSignedRelease(t *testing.T, ss *provenancetest.Sigstore, dir string) (npmTgz, npmBundle, ghBundle string) {
	npmTgz = fakeRelease{}.build(t, dir)
	npmBundle, ghBundle = signing{}.sign(t, ss, dir, npmTgz)
	return npmTgz, npmBundle, ghBundle
}

// TrustedRootFile writes ss's trusted root into dir.
func TrustedRootFile(t *testing.T, ss *provenancetest.Sigstore, dir string) string {
	return trustedRootFile(t, ss, dir)
}

// TestExpect is what the fake releases are signed as.
var TestExpect = testExpect
