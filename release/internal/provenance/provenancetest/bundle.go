package provenancetest

import (
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"fmt"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	protobundle "github.com/sigstore/protobuf-specs/gen/pb-go/bundle/v1"
	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	protodsse "github.com/sigstore/protobuf-specs/gen/pb-go/dsse"
	protorekor "github.com/sigstore/protobuf-specs/gen/pb-go/rekor/v1"
	"github.com/sigstore/sigstore-go/pkg/tlog"
	"google.golang.org/protobuf/encoding/protojson"
)

const (
	bundleV03     = "application/vnd.dev.sigstore.bundle.v0.3+json"
	payloadInToto = "application/vnd.in-toto+json"
)

// Sign signs payload (an in-toto statement) as id, logs it in the
// transparency log with an inclusion proof and a signed entry timestamp, and
// returns the Sigstore bundle v0.3 JSON.
func (s *Sigstore) Sign(id Identity, payload []byte) ([]byte, error) {
	key, err := newKey()
	if err != nil {
		return nil, err
	}
	cert, err := s.leaf(id, key)
	if err != nil {
		return nil, err
	}
	sig, err := signDSSE(key, payloadInToto, payload)
	if err != nil {
		return nil, err
	}
	env := &dsse.Envelope{
		PayloadType: payloadInToto,
		Payload:     base64.StdEncoding.EncodeToString(payload),
		Signatures:  []dsse.Signature{{Sig: base64.StdEncoding.EncodeToString(sig)}},
	}
	tle, err := s.logEntry(cert, env, sig)
	if err != nil {
		return nil, err
	}
	b := &protobundle.Bundle{
		MediaType: bundleV03,
		VerificationMaterial: &protobundle.VerificationMaterial{
			Content:     &protobundle.VerificationMaterial_Certificate{Certificate: &protocommon.X509Certificate{RawBytes: cert.Raw}},
			TlogEntries: []*protorekor.TransparencyLogEntry{tle},
		},
		Content: &protobundle.Bundle_DsseEnvelope{DsseEnvelope: &protodsse.Envelope{
			Payload:     payload,
			PayloadType: payloadInToto,
			Signatures:  []*protodsse.Signature{{Sig: sig}},
		}},
	}
	return protojson.Marshal(b)
}

// signDSSE signs the DSSE pre-authentication encoding of the payload.
func signDSSE(key *ecdsa.PrivateKey, payloadType string, payload []byte) ([]byte, error) {
	pae := fmt.Sprintf("DSSEv1 %d %s %d ", len(payloadType), payloadType, len(payload))
	h := sha256.Sum256(append([]byte(pae), payload...))
	return ecdsa.SignASN1(rand.Reader, key, h[:])
}

// logEntry records the envelope in the virtual log. The log's helper leaves
// out the kind/version and the signed entry timestamp a bundle needs, so
// both are filled in here.
func (s *Sigstore) logEntry(cert *x509.Certificate, env *dsse.Envelope, sig []byte) (*protorekor.TransparencyLogEntry, error) {
	entry, err := s.log.GenerateTlogEntry(cert, env, sig, s.now.Unix(), true)
	if err != nil {
		return nil, fmt.Errorf("log entry: %w", err)
	}
	tle := entry.TransparencyLogEntry()
	tle.KindVersion = &protorekor.KindVersion{Kind: "dsse", Version: "0.0.1"}
	set, err := s.log.RekorSignPayload(tlog.RekorPayload{
		Body:           base64.StdEncoding.EncodeToString(tle.CanonicalizedBody),
		IntegratedTime: tle.IntegratedTime,
		LogIndex:       tle.LogIndex,
		LogID:          hex.EncodeToString(tle.LogId.KeyId),
	})
	if err != nil {
		return nil, fmt.Errorf("signed entry timestamp: %w", err)
	}
	tle.InclusionPromise = &protorekor.InclusionPromise{SignedEntryTimestamp: set}
	return tle, nil
}
