package verify_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/release/internal/digest"
	"github.com/agenttool/collab/release/internal/online"
	"github.com/agenttool/collab/release/internal/provenance"
	"github.com/agenttool/collab/release/internal/provenance/provenancetest"
	"github.com/agenttool/collab/release/internal/verify"
)

// fakeServices serves a release the way the npm registry, GitHub Releases
// and the GitHub attestations API do, from the files of a fake release.
func fakeServices(t *testing.T, dir, npmTgz, npmBundle, ghBundle string, servedTgz []byte) *httptest.Server {
	t.Helper()
	read := func(p string) []byte {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	sums := digest.Bytes(servedTgz)
	mux := http.NewServeMux()
	var srv *httptest.Server
	// The client writes the scoped name as one path segment, "@agenttool%2Fcollab-mcp".
	mux.HandleFunc("GET /registry/{name}/1.2.3", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("name") != "@agenttool/collab-mcp" {
			http.NotFound(w, r)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"dist": map[string]string{
			"tarball": srv.URL + "/registry/@agenttool/collab-mcp/-/collab-mcp-1.2.3.tgz", "integrity": sums.Integrity(),
		}})
	})
	mux.HandleFunc("GET /registry/@agenttool/collab-mcp/-/collab-mcp-1.2.3.tgz", func(w http.ResponseWriter, r *http.Request) {
		w.Write(servedTgz)
	})
	mux.HandleFunc("GET /registry/-/npm/v1/attestations/{spec}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("spec") != "@agenttool/collab-mcp@1.2.3" {
			http.NotFound(w, r)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"attestations": []map[string]any{
			{"predicateType": "https://github.com/npm/attestation/tree/main/specs/publish/v0.1", "bundle": json.RawMessage(`{}`)},
			{"predicateType": provenance.SLSAv1, "bundle": json.RawMessage(read(npmBundle))},
		}})
	})
	mux.HandleFunc("GET /github/agenttool/collab/releases/download/v1.2.3/{name}", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(dir, "release", r.PathValue("name")))
	})
	mux.HandleFunc("GET /api/repos/agenttool/collab/attestations/{digest}", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer test-token" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"attestations": []map[string]any{
			{"bundle": json.RawMessage(bytes.TrimSpace(read(ghBundle)))},
		}})
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestOnlineFetchFeedsTheOfflineChecks(t *testing.T) {
	ss, err := provenancetest.New()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		tamper    bool
		wantFails []string
	}{
		{name: "registry and Release serve the signed files"},
		{name: "registry serves other bytes", tamper: true,
			wantFails: []string{"are the same bytes", "checksums.txt lists the tarball", "npm provenance"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			npmTgz, npmBundle, ghBundle := verify.BuildSignedRelease(t, ss, dir)
			served, err := os.ReadFile(npmTgz)
			if err != nil {
				t.Fatal(err)
			}
			if tt.tamper {
				served = append([]byte(nil), served...)
				served[len(served)-10] ^= 1
			}
			srv := fakeServices(t, dir, npmTgz, npmBundle, ghBundle, served)
			in := verify.Inputs{
				Tag: "v1.2.3", Root: "testdata/root", Expect: verify.TestExpect,
				TrustedRoot: verify.TrustedRootFile(t, ss, dir), RunHost: true,
			}
			err = online.Fetch(context.Background(), online.Config{
				Registry: srv.URL + "/registry", GitHub: srv.URL + "/github", API: srv.URL + "/api",
				Token: "test-token", Dir: t.TempDir(),
			}, &in)
			if err != nil {
				t.Fatal(err)
			}
			r, err := verify.Run(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			r.Write(&out, "verify")
			failed := r.Failed()
			if len(failed) != len(tt.wantFails) {
				t.Fatalf("%d checks failed, want %d:\n%s", len(failed), len(tt.wantFails), out.String())
			}
			for i, w := range tt.wantFails {
				if !strings.Contains(failed[i].Name, w) {
					t.Errorf("failed check %q, want one mentioning %q:\n%s", failed[i].Name, w, out.String())
				}
			}
		})
	}
}
