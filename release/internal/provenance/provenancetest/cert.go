package provenancetest

import (
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"fmt"
	"math/big"
	"net/url"
	"time"

	"github.com/sigstore/sigstore-go/pkg/fulcio/certificate"
)

// Identity is the GitHub Actions run a certificate is issued to.
type Identity struct {
	Repo     string // owner/name
	Workflow string // .github/workflows/release.yml
	Ref      string // refs/tags/v1.2.3
	Commit   string // 40 hex digits
	Issuer   string // OIDC issuer URL
}

// SAN is the certificate's URI SAN, as Fulcio writes it for a workflow run.
func (id Identity) SAN() string {
	return "https://github.com/" + id.Repo + "/" + id.Workflow + "@" + id.Ref
}

// leaf issues a short-lived code-signing certificate for id, carrying the
// Fulcio extensions a verifier matches (issuer, source repository and ref,
// source digest, build signer).
func (s *Sigstore) leaf(id Identity, key *ecdsa.PrivateKey) (*x509.Certificate, error) {
	san, err := url.Parse(id.SAN())
	if err != nil {
		return nil, err
	}
	exts := []pkix.Extension{{Id: certificate.OIDIssuer, Value: []byte(id.Issuer)}}
	for _, e := range []struct {
		oid asn1.ObjectIdentifier
		val string
	}{
		{certificate.OIDIssuerV2, id.Issuer},
		{certificate.OIDBuildSignerURI, id.SAN()},
		{certificate.OIDRunnerEnvironment, "github-hosted"},
		{certificate.OIDSourceRepositoryURI, "https://github.com/" + id.Repo},
		{certificate.OIDSourceRepositoryDigest, id.Commit},
		{certificate.OIDSourceRepositoryRef, id.Ref},
		{certificate.OIDBuildConfigURI, id.SAN()},
		{certificate.OIDBuildTrigger, "push"},
	} {
		der, err := asn1.MarshalWithParams(e.val, "utf8")
		if err != nil {
			return nil, err
		}
		exts = append(exts, pkix.Extension{Id: e.oid, Value: der})
	}
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:    serial,
		NotBefore:       s.now.Add(-time.Minute),
		NotAfter:        s.now.Add(10 * time.Minute),
		KeyUsage:        x509.KeyUsageDigitalSignature,
		ExtKeyUsage:     []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
		URIs:            []*url.URL{san},
		ExtraExtensions: exts,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, s.interCert, key.Public(), s.interKey)
	if err != nil {
		return nil, fmt.Errorf("issue leaf certificate: %w", err)
	}
	return x509.ParseCertificate(der)
}
