// Package provenancetest is a throwaway Sigstore (certificate authority and
// transparency log) for offline tests: it signs in-toto statements as Sigstore
// bundles with a certificate shaped like one GitHub Actions gets from Fulcio,
// and writes the trusted root that verifies them. Nothing here is trusted by
// a real release; only tests import it.
package provenancetest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/testing/ca"
)

// Sigstore is one throwaway instance. Bundles it signs verify only against
// its own trusted root.
type Sigstore struct {
	log       *ca.VirtualSigstore // transparency log (entries, SETs, inclusion proofs)
	rootCert  *x509.Certificate
	interCert *x509.Certificate
	interKey  *ecdsa.PrivateKey
	now       time.Time
}

// New creates an instance with a fresh root, intermediate and log key.
func New() (*Sigstore, error) {
	log, err := ca.NewVirtualSigstore()
	if err != nil {
		return nil, fmt.Errorf("virtual sigstore: %w", err)
	}
	rootCert, rootKey, err := ca.GenerateRootCa()
	if err != nil {
		return nil, fmt.Errorf("root CA: %w", err)
	}
	interCert, interKey, err := ca.GenerateFulcioIntermediate(rootCert, rootKey)
	if err != nil {
		return nil, fmt.Errorf("intermediate CA: %w", err)
	}
	return &Sigstore{log: log, rootCert: rootCert, interCert: interCert, interKey: interKey, now: time.Now()}, nil
}

// TrustedRoot returns the trusted root that verifies this instance's bundles:
// its certificate authority and its transparency log, no CT log and no
// timestamp authority.
func (s *Sigstore) TrustedRoot() (*root.TrustedRoot, error) {
	fulcio := &root.FulcioCertificateAuthority{
		Root:                s.rootCert,
		Intermediates:       []*x509.Certificate{s.interCert},
		ValidityPeriodStart: s.now.Add(-time.Hour),
		URI:                 "https://fulcio.test",
	}
	tlogs := map[string]*root.TransparencyLog{}
	for id, l := range s.log.RekorLogs() {
		// The virtual log keys itself by the hex text of its ID; a trusted
		// root stores the raw key ID.
		raw, err := hex.DecodeString(id)
		if err != nil {
			return nil, fmt.Errorf("log id: %w", err)
		}
		l.ID = raw
		tlogs[id] = l
	}
	return root.NewTrustedRoot(root.TrustedRootMediaType01, []root.CertificateAuthority{fulcio}, nil, nil, tlogs)
}

// TrustedRootJSON returns TrustedRoot as trusted_root.json bytes.
func (s *Sigstore) TrustedRootJSON() ([]byte, error) {
	tr, err := s.TrustedRoot()
	if err != nil {
		return nil, err
	}
	return tr.MarshalJSON()
}

func newKey() (*ecdsa.PrivateKey, error) {
	return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
}
