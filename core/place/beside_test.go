package place_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/place"
)

func TestBesideDatabaseNamesEveryFileFromTheAbsolutePath(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := abs(t, "/data/agenttool")
	cases := []struct {
		name, db, dir, file string
	}{
		{"absolute", filepath.Join(root, "collab.sqlite"), root, filepath.Join(root, "collab.sqlite")},
		{"unclean absolute", root + string(filepath.Separator) + "." + string(filepath.Separator) + "collab.sqlite", root, filepath.Join(root, "collab.sqlite")},
		{"relative to the working directory", "collab.sqlite", wd, filepath.Join(wd, "collab.sqlite")},
		{"relative with a folder", filepath.Join("rel", "x.db"), filepath.Join(wd, "rel"), filepath.Join(wd, "rel", "x.db")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := place.BesideDatabase(tc.db)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{
				"Database":        tc.file,
				"Dir":             tc.dir,
				"CredentialDir":   filepath.Join(tc.dir, "collab-sessions"),
				"CredentialFile":  filepath.Join(tc.dir, "collab-sessions", "session_1.json"),
				"TokensFile":      filepath.Join(tc.dir, "collab-tokens.json"),
				"ResumeDir":       filepath.Join(tc.dir, "collab-remote"),
				"SearchIndex":     tc.file + ".search",
				"WAL":             tc.file + "-wal",
				"SHM":             tc.file + "-shm",
				"RollbackJournal": tc.file + "-journal",
			}
			got := map[string]string{
				"Database": b.Database(), "Dir": b.Dir(), "CredentialDir": b.CredentialDir(),
				"CredentialFile": b.CredentialFile("session_1"), "TokensFile": b.TokensFile(),
				"ResumeDir": b.ResumeDir(), "SearchIndex": b.SearchIndex(), "WAL": b.WAL(), "SHM": b.SHM(),
				"RollbackJournal": b.RollbackJournal(),
			}
			for k, w := range want {
				if got[k] != w {
					t.Errorf("%s = %q, want %q", k, got[k], w)
				}
			}
		})
	}
}

func TestBesideAnInMemoryDatabaseIsRefused(t *testing.T) {
	if _, err := place.BesideDatabase(":memory:"); !errors.Is(err, place.ErrMemory) {
		t.Fatalf("BesideDatabase(:memory:) error = %v, want ErrMemory", err)
	}
}
