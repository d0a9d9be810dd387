package provenance

import (
	"encoding/hex"
	"fmt"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/fulcio/certificate"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/verify"
)

// Verified is what a bundle was shown to say.
type Verified struct {
	Statement Statement
	Identity  string // certificate SAN that signed it
	// SCTChecked is false when the trusted root lists no certificate
	// transparency log, so signed certificate timestamps could not be required.
	SCTChecked bool
}

// Verify checks one Sigstore bundle: its signature, certificate chain and
// transparency-log inclusion against tr; that the signer is e's workflow at
// e's ref (URI SAN, issuer, and the Fulcio source repository/ref extensions);
// then the statement's predicate (CheckStatement) and that its subjects are
// exactly want (CheckSubjects).
func Verify(tr root.TrustedMaterial, b *bundle.Bundle, s Shape, e Expect, want []Subject) (Verified, error) {
	opts := []verify.VerifierOption{verify.WithTransparencyLog(1), verify.WithObserverTimestamps(1)}
	sct := len(tr.CTLogs()) > 0
	if sct {
		opts = append(opts, verify.WithSignedCertificateTimestamps(1))
	}
	v, err := verify.NewVerifier(tr, opts...)
	if err != nil {
		return Verified{}, fmt.Errorf("%s: set up verifier: %w", s, err)
	}
	id, err := identity(e)
	if err != nil {
		return Verified{}, err
	}
	digests, err := artifactDigests(want)
	if err != nil {
		return Verified{}, err
	}
	res, err := v.Verify(b, verify.NewPolicy(verify.WithArtifactDigests(digests), verify.WithCertificateIdentity(id)))
	if err != nil {
		return Verified{}, fmt.Errorf("%s: sigstore verification: %w", s, err)
	}
	st, err := ParseStatement(b.GetDsseEnvelope().GetPayload())
	if err != nil {
		return Verified{}, fmt.Errorf("%s: %w", s, err)
	}
	if err := CheckStatement(st, s, e); err != nil {
		return Verified{}, err
	}
	if err := CheckSubjects(st, want); err != nil {
		return Verified{}, fmt.Errorf("%s: %w", s, err)
	}
	out := Verified{Statement: st, SCTChecked: sct}
	if res.Signature != nil && res.Signature.Certificate != nil {
		out.Identity = res.Signature.Certificate.SubjectAlternativeName
	}
	return out, nil
}

func identity(e Expect) (verify.CertificateIdentity, error) {
	san, err := verify.NewSANMatcher(e.Identity(), "")
	if err != nil {
		return verify.CertificateIdentity{}, err
	}
	iss, err := verify.NewIssuerMatcher(Issuer, "")
	if err != nil {
		return verify.CertificateIdentity{}, err
	}
	ext := certificate.Extensions{
		SourceRepositoryURI:    e.RepoURL(),
		SourceRepositoryRef:    e.Ref,
		SourceRepositoryDigest: e.Commit,
	}
	return verify.NewCertificateIdentity(san, iss, ext)
}

// artifactDigests turns the expected subjects into the digests Sigstore
// matches against the statement; each expected subject carries one digest.
func artifactDigests(want []Subject) ([]verify.ArtifactDigest, error) {
	var out []verify.ArtifactDigest
	for _, w := range want {
		if len(w.Digest) != 1 {
			return nil, fmt.Errorf("expected subject %q must carry exactly one digest", w.Name)
		}
		for alg, sum := range w.Digest {
			raw, err := hex.DecodeString(sum)
			if err != nil {
				return nil, fmt.Errorf("expected subject %q: %w", w.Name, err)
			}
			out = append(out, verify.ArtifactDigest{Algorithm: alg, Digest: raw})
		}
	}
	return out, nil
}
