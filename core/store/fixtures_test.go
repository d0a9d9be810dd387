package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/store"
)

// fixtureManifest is the part of a reference fixture's manifest.json the
// tests compare against.
type fixtureManifest struct {
	Workspaces []struct {
		ID           string `json:"id"`
		HeadSequence int64  `json:"head_sequence"`
		HeadHash     string `json:"head_hash"`
	} `json:"workspaces"`
}

func loadManifest(t *testing.T, dir string) fixtureManifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m fixtureManifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// copyFixture copies a fixture database into a private temporary directory.
func copyFixture(t *testing.T, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "collab.sqlite")
	copyFile(t, src, dst, 0o600)
	return dst
}

func copyFile(t *testing.T, src, dst string, mode os.FileMode) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func fileSHA(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func TestReferenceDatabasesOpenAndEveryJournalVerifies(t *testing.T) {
	for _, version := range []string{"v0.1.0", "v0.2.0", "v0.3.0", "v0.3.1", "v0.4.0"} {
		t.Run(version, func(t *testing.T) {
			dir := filepath.Join("testdata", "fixtures", "versions", version)
			m := loadManifest(t, dir)
			ctx := context.Background()
			st, err := backend.Open(ctx, backend.Options{Path: copyFixture(t, filepath.Join(dir, "collab.sqlite"))})
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer st.Close()
			for _, w := range m.Workspaces {
				ok, err := st.VerifyJournal(ctx, w.ID)
				if err != nil || !ok {
					t.Fatalf("%s does not verify: %v", w.ID, err)
				}
				ws, err := st.Workspace(ctx, w.ID)
				if err != nil || ws.EventHeadSequence != w.HeadSequence || ws.EventHeadHash != w.HeadHash {
					t.Fatalf("%s head moved: %+v (%v)", w.ID, ws, err)
				}
			}
			var uv, app int64
			readPool(st).QueryRow("PRAGMA user_version").Scan(&uv)
			readPool(st).QueryRow("PRAGMA application_id").Scan(&app)
			if uv != backend.SchemaVersion || app != backend.ApplicationID {
				t.Fatalf("after open user_version=%d application_id=%d", uv, app)
			}
		})
	}
}

func TestUnicodeEdgeJournalVerifies(t *testing.T) {
	ctx := context.Background()
	st, err := backend.Open(ctx, backend.Options{Path: copyFixture(t, filepath.Join("testdata", "fixtures", "edge", "v0.4.0-unicode-edge", "collab.sqlite"))})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer st.Close()
	var ids []string
	rows, _ := readPool(st).Query("SELECT id FROM workspaces")
	for rows.Next() {
		var id string
		rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	if len(ids) == 0 {
		t.Fatal("fixture has no workspace")
	}
	for _, id := range ids {
		if ok, err := st.VerifyJournal(ctx, id); err != nil || !ok {
			t.Fatalf("%s: lone-surrogate payloads must verify: %v", id, err)
		}
	}
}

func TestCorruptedReferenceJournalIsRefusedAndLeftUnchanged(t *testing.T) {
	path := copyFixture(t, filepath.Join("testdata", "fixtures", "edge", "v0.4.0-lone-surrogate-actor", "collab.sqlite"))
	before := fileSHA(t, path)
	_, err := backend.Open(context.Background(), backend.Options{Path: path})
	if !collaberr.HasCode(err, "database_journal_invalid") {
		t.Fatalf("want database_journal_invalid, got %v", err)
	}
	if after := fileSHA(t, path); after != before {
		t.Fatal("the refused database file changed")
	}
}

func TestReferenceCredentialFileResumesAgainstItsDatabase(t *testing.T) {
	dir := filepath.Join("testdata", "fixtures", "versions", "v0.4.0")
	db := copyFixture(t, filepath.Join(dir, "collab.sqlite"))
	sessions := filepath.Join(filepath.Dir(db), "collab-sessions")
	if err := os.Mkdir(sessions, 0o700); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "collab-sessions"))
	if err != nil || len(entries) == 0 {
		t.Fatalf("no credential files in fixture: %v", err)
	}
	ctx := context.Background()
	st, err := backend.Open(ctx, backend.Options{Path: db})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, e := range entries {
		file := filepath.Join(sessions, e.Name())
		copyFile(t, filepath.Join(dir, "collab-sessions", e.Name()), file, 0o600)
		cred, err := credfile.Read(file)
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		res, err := st.ResumeSession(ctx, cred, false)
		if err != nil {
			t.Fatalf("%s: resume: %v", e.Name(), err)
		}
		if res.Credential.Generation != cred.Generation+1 || res.Recovery != nil {
			t.Fatalf("%s: resumed at generation %d (recovery %v)", e.Name(), res.Credential.Generation, res.Recovery)
		}
		next, err := st.NextForSession(ctx, store.Credential{SessionID: cred.SessionID, Token: cred.Token, Generation: res.Credential.Generation}, nil, 10)
		if err != nil || !next.Events.ChainValid {
			t.Fatalf("%s: next after resume: %v", e.Name(), err)
		}
	}
}
