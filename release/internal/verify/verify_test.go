package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/agenttool/collab/release/internal/provenance"
	"github.com/agenttool/collab/release/internal/provenance/provenancetest"
	"github.com/agenttool/collab/release/internal/report"
	"github.com/agenttool/collab/release/internal/target"
)

var testExpect = provenance.Expect{
	Repo:     testSigner.Repo,
	Workflow: testSigner.Workflow,
	Commit:   testSigner.Commit,
	Runner:   "github-hosted",
}

// verifyCase is one release, possibly broken in one way, and the checks that
// must fail for it (each entry a substring of one failing check's name); no
// other check may fail.
type verifyCase struct {
	name      string
	release   fakeRelease
	signing   signing
	after     func(t *testing.T, dir string) // tampers with files after signing
	in        func(*Inputs)
	foreign   bool
	wantFails []string
}

func identity(mod func(*provenancetest.Identity)) *provenancetest.Identity {
	id := testSigner
	mod(&id)
	return &id
}

func editBundlePayload(data []byte) []byte {
	var m map[string]any
	_ = json.Unmarshal(data, &m)
	env := m["dsseEnvelope"].(map[string]any)
	env["payload"] = strings.Replace(env["payload"].(string), "A", "B", 1)
	out, _ := json.Marshal(m)
	return out
}

func TestVerifyReleaseRefusesEachKindOfBreakage(t *testing.T) {
	ss, err := provenancetest.New()
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := provenancetest.New()
	if err != nil {
		t.Fatal(err)
	}
	host := target.Target{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}
	const (
		npmProv  = "npm provenance signed by"
		ghAttest = "GitHub attestations signed by"
	)
	cases := []verifyCase{
		{name: "correct release"},
		{name: "tampered tarball, re-listed everywhere but not re-signed",
			after: func(t *testing.T, dir string) {
				rebuilt := fakeRelease{npmEdit: func(f map[string]file) { f["LICENSE"] = file{0o644, []byte("changed\n")} }}
				rebuilt.build(t, dir)
			},
			wantFails: []string{npmProv, ghAttest}},
		{name: "wrong repository", in: func(in *Inputs) { in.Expect.Repo = "agenttool/other" },
			wantFails: []string{npmProv, ghAttest}},
		{name: "wrong ref", signing: signing{signer: identity(func(id *provenancetest.Identity) { id.Ref = "refs/heads/main" })},
			wantFails: []string{npmProv, ghAttest}},
		{name: "wrong workflow", signing: signing{signer: identity(func(id *provenancetest.Identity) { id.Workflow = ".github/workflows/ci.yml" })},
			wantFails: []string{npmProv, ghAttest}},
		{name: "wrong commit", signing: signing{signer: identity(func(id *provenancetest.Identity) { id.Commit = strings.Repeat("f", 40) })},
			wantFails: []string{npmProv, ghAttest}},
		{name: "foreign trusted root", foreign: true, wantFails: []string{npmProv, ghAttest}},
		{name: "tampered provenance payload", signing: signing{npmPayload: editBundlePayload}, wantFails: []string{npmProv}},
		{name: "wrong purl", signing: signing{npmPURL: "pkg:npm/%40agenttool/other@1.2.3"}, wantFails: []string{npmProv}},
		{name: "one byte changed in the Release copy",
			after: func(t *testing.T, dir string) {
				p := dir + "/release/" + testTgz
				data := mustRead(t, p)
				data[len(data)/2] ^= 1
				write(t, p, data)
			},
			wantFails: []string{"are the same bytes", "every Release file matches"}},
		{name: "extra file in the tarball",
			release:   fakeRelease{npmEdit: func(f map[string]file) { f["bin/extra.sh"] = file{0o755, []byte("#!/bin/sh\n")} }},
			wantFails: []string{"file list is exactly"}},
		{name: "binary packed 0644",
			release: fakeRelease{npmEdit: func(f map[string]file) {
				f["bin/linux-arm64/agenttool-collab-mcp"] = file{0o644, binary(target.Target{GOOS: "linux", GOARCH: "arm64"})}
			}},
			wantFails: []string{"file modes"}},
		{name: "npm binary differs from the archive's",
			release:   fakeRelease{archiveBinary: map[target.Target][]byte{{GOOS: "darwin", GOARCH: "arm64"}: []byte("other build\n")}},
			wantFails: []string{"darwin/arm64: npm binary equals"}},
		{name: "checksums.txt misses the tarball", release: fakeRelease{dropTgzSum: true},
			wantFails: []string{"checksums.txt lists the tarball", "every Release file matches"}},
		{name: "package.json with an install script",
			release:   fakeRelease{packageJSON: []byte(`{"name":"@agenttool/collab-mcp","version":"1.2.3","license":"Apache-2.0","repository":{"type":"git","url":"x"},"bin":{"a":"bin/agenttool-collab-mcp.js"},"files":[],"scripts":{"postinstall":"node x"}}`)},
			wantFails: []string{"no scripts or dependencies"}},
		{name: "package version differs from the tag",
			release:   fakeRelease{packageJSON: []byte(`{"name":"@agenttool/collab-mcp","version":"1.2.4","license":"Apache-2.0","repository":{"type":"git","url":"x"},"bin":{"a":"bin/agenttool-collab-mcp.js"},"files":[]}`)},
			wantFails: []string{"name and version match the tag"}},
		{name: "registry integrity differs", in: func(in *Inputs) { in.NPMIntegrity = "sha512-AAAA" },
			wantFails: []string{"npm integrity is the tarball's sha512"}},
		{name: "host binary reports another version",
			release: fakeRelease{
				npmEdit: func(f map[string]file) {
					f["bin/"+host.NPMPlatform()+"/"+host.Exe()] = file{0o755, []byte("#!/bin/sh\necho 'agenttool-collab-mcp 9.9.9'\n")}
				},
				archiveBinary: map[target.Target][]byte{host: []byte("#!/bin/sh\necho 'agenttool-collab-mcp 9.9.9'\n")},
			},
			wantFails: []string{"reports version"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			npmTgz := tc.release.build(t, dir)
			npmBundle, ghBundle := tc.signing.sign(t, ss, dir, npmTgz)
			if tc.after != nil {
				tc.after(t, dir)
			}
			trustedBy := ss
			if tc.foreign {
				trustedBy = foreign
			}
			in := Inputs{
				Tag: testTag, Root: "testdata/root", NPMTarball: npmTgz, ReleaseDir: dir + "/release",
				TrustedRoot: trustedRootFile(t, trustedBy, dir), NPMBundle: npmBundle,
				GitHubBundles: []string{ghBundle}, Expect: testExpect, RunHost: runtime.GOOS != "windows",
			}
			if tc.in != nil {
				tc.in(&in)
			}
			r, err := Run(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			assertFails(t, r, tc.wantFails)
		})
	}
}

func assertFails(t *testing.T, r *report.Report, want []string) {
	t.Helper()
	failed := r.Failed()
	var out bytes.Buffer
	r.Write(&out, "verify")
	if len(failed) != len(want) {
		t.Fatalf("%d checks failed, want %d %q:\n%s", len(failed), len(want), want, out.String())
	}
	for _, w := range want {
		found := false
		for _, f := range failed {
			found = found || strings.Contains(f.Name, w)
		}
		if !found {
			t.Errorf("no failed check mentions %q:\n%s", w, out.String())
		}
	}
	if len(want) == 0 && !r.OK() {
		t.Errorf("report not OK:\n%s", out.String())
	}
	if testing.Verbose() {
		t.Log("\n" + out.String())
	}
}
