package provenance_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"

	"github.com/agenttool/collab/release/internal/provenance"
	"github.com/agenttool/collab/release/internal/provenance/provenancetest"
)

var signer = provenancetest.Identity{
	Repo:     "agenttool/collab",
	Workflow: ".github/workflows/release.yml",
	Ref:      "refs/tags/v1.2.3",
	Commit:   strings.Repeat("c0ffee", 6) + "abcd",
	Issuer:   provenance.Issuer,
}

var expect = provenance.Expect{
	Repo:     signer.Repo,
	Workflow: signer.Workflow,
	Ref:      signer.Ref,
	Commit:   signer.Commit,
	Runner:   "github-hosted",
}

const (
	purl      = "pkg:npm/%40agenttool/collab-mcp@1.2.3"
	tgzSHA512 = "aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11"
	zipSHA256 = "bb22bb22bb22bb22bb22bb22bb22bb22bb22bb22bb22bb22bb22bb22bb22bb22"
	sumSHA256 = "cc33cc33cc33cc33cc33cc33cc33cc33cc33cc33cc33cc33cc33cc33cc33cc33"
)

func npmSubjects(sum string) []provenance.Subject {
	return []provenance.Subject{{Name: purl, Digest: map[string]string{"sha512": sum}}}
}

func ghSubjects() []provenance.Subject {
	return []provenance.Subject{
		{Name: "a.zip", Digest: map[string]string{"sha256": zipSHA256}},
		{Name: "checksums.txt", Digest: map[string]string{"sha256": sumSHA256}},
	}
}

type fixture struct {
	trusted, foreign root.TrustedMaterial
	ss               *provenancetest.Sigstore
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	ss, err := provenancetest.New()
	if err != nil {
		t.Fatal(err)
	}
	other, err := provenancetest.New()
	if err != nil {
		t.Fatal(err)
	}
	load := func(s *provenancetest.Sigstore) root.TrustedMaterial {
		data, err := s.TrustedRootJSON()
		if err != nil {
			t.Fatal(err)
		}
		tr, err := root.NewTrustedRootFromJSON(data)
		if err != nil {
			t.Fatalf("trusted root does not parse back: %v", err)
		}
		return tr
	}
	return fixture{trusted: load(ss), foreign: load(other), ss: ss}
}

func (f fixture) bundle(t *testing.T, id provenancetest.Identity, st provenance.Statement, edit func([]byte) []byte) *bundle.Bundle {
	t.Helper()
	data, err := f.ss.Sign(id, provenancetest.Payload(st))
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		data = edit(data)
	}
	var b bundle.Bundle
	if err := b.UnmarshalJSON(data); err != nil {
		t.Fatalf("bundle does not load: %v", err)
	}
	return &b
}

// tamperPayload changes one statement byte inside the signed envelope while
// keeping the bundle well formed.
func tamperPayload(data []byte) []byte {
	var m map[string]any
	_ = json.Unmarshal(data, &m)
	env := m["dsseEnvelope"].(map[string]any)
	env["payload"] = strings.Replace(env["payload"].(string), "A", "B", 1)
	out, _ := json.Marshal(m)
	return out
}

func TestVerifyAcceptsBothShapesAndRefusesEachTamperedFact(t *testing.T) {
	f := newFixture(t)
	other := func(mod func(*provenancetest.Identity)) provenancetest.Identity {
		id := signer
		mod(&id)
		return id
	}
	tests := []struct {
		name    string
		shape   provenance.Shape
		signer  provenancetest.Identity
		st      provenance.Statement
		edit    func([]byte) []byte
		foreign bool
		want    []provenance.Subject
		errPart string // empty: must verify
	}{
		{name: "npm provenance", shape: provenance.NPM, signer: signer,
			st: provenancetest.Statement(provenance.NPM, signer, npmSubjects(tgzSHA512)), want: npmSubjects(tgzSHA512)},
		{name: "GitHub attestation", shape: provenance.GitHub, signer: signer,
			st: provenancetest.Statement(provenance.GitHub, signer, ghSubjects()), want: ghSubjects()},
		{name: "tampered tarball", shape: provenance.NPM, signer: signer,
			st:   provenancetest.Statement(provenance.NPM, signer, npmSubjects(tgzSHA512)),
			want: npmSubjects(strings.Replace(tgzSHA512, "aa", "ab", 1)), errPart: "digest"},
		{name: "wrong repository", shape: provenance.NPM, signer: other(func(id *provenancetest.Identity) { id.Repo = "evil/collab" }),
			st:   provenancetest.Statement(provenance.NPM, other(func(id *provenancetest.Identity) { id.Repo = "evil/collab" }), npmSubjects(tgzSHA512)),
			want: npmSubjects(tgzSHA512), errPart: "SAN"},
		{name: "wrong ref", shape: provenance.NPM, signer: other(func(id *provenancetest.Identity) { id.Ref = "refs/heads/main" }),
			st:   provenancetest.Statement(provenance.NPM, other(func(id *provenancetest.Identity) { id.Ref = "refs/heads/main" }), npmSubjects(tgzSHA512)),
			want: npmSubjects(tgzSHA512), errPart: "SAN"},
		{name: "wrong workflow", shape: provenance.GitHub, signer: other(func(id *provenancetest.Identity) { id.Workflow = ".github/workflows/ci.yml" }),
			st:   provenancetest.Statement(provenance.GitHub, other(func(id *provenancetest.Identity) { id.Workflow = ".github/workflows/ci.yml" }), ghSubjects()),
			want: ghSubjects(), errPart: "SAN"},
		{name: "statement names another repository than the certificate", shape: provenance.NPM, signer: signer,
			st:   provenancetest.Statement(provenance.NPM, other(func(id *provenancetest.Identity) { id.Repo = "evil/collab" }), npmSubjects(tgzSHA512)),
			want: npmSubjects(tgzSHA512), errPart: "workflow.repository"},
		{name: "foreign trusted root", shape: provenance.NPM, signer: signer, foreign: true,
			st:   provenancetest.Statement(provenance.NPM, signer, npmSubjects(tgzSHA512)),
			want: npmSubjects(tgzSHA512), errPart: "sigstore verification"},
		{name: "tampered payload", shape: provenance.NPM, signer: signer, edit: tamperPayload,
			st:   provenancetest.Statement(provenance.NPM, signer, npmSubjects(tgzSHA512)),
			want: npmSubjects(tgzSHA512), errPart: "sigstore verification"},
		{name: "wrong purl", shape: provenance.NPM, signer: signer,
			st: provenancetest.Statement(provenance.NPM, signer, []provenance.Subject{
				{Name: "pkg:npm/%40agenttool/other@1.2.3", Digest: map[string]string{"sha512": tgzSHA512}}}),
			want: npmSubjects(tgzSHA512), errPart: "no subject named"},
		{name: "extra subject", shape: provenance.GitHub, signer: signer,
			st: provenancetest.Statement(provenance.GitHub, signer, append(ghSubjects(),
				provenance.Subject{Name: "extra.bin", Digest: map[string]string{"sha256": zipSHA256}})),
			want: ghSubjects(), errPart: "unexpected subjects"},
		{name: "npm statement checked as a GitHub attestation", shape: provenance.GitHub, signer: signer,
			st:   provenancetest.Statement(provenance.NPM, signer, ghSubjects()),
			want: ghSubjects(), errPart: "buildType"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := f.bundle(t, tt.signer, tt.st, tt.edit)
			tr := f.trusted
			if tt.foreign {
				tr = f.foreign
			}
			v, err := provenance.Verify(tr, b, tt.shape, expect, tt.want)
			if tt.errPart == "" {
				if err != nil {
					t.Fatalf("Verify: %v", err)
				}
				if v.Identity != signer.SAN() || v.SCTChecked {
					t.Errorf("verified identity %q, SCT checked %v", v.Identity, v.SCTChecked)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.errPart) {
				t.Fatalf("Verify error = %v, want one mentioning %q", err, tt.errPart)
			}
			if testing.Verbose() {
				t.Log(err)
			}
		})
	}
}
