package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyTo copies the database file src into dir as collab.sqlite.
func copyTo(t *testing.T, src, dir string) string {
	t.Helper()
	dst := filepath.Join(dir, "collab.sqlite")
	copyFile(t, src, dst)
	return dst
}

func sum(t *testing.T, path string) [32]byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func TestVerifyCommandReportsEveryJournalWithoutChangingTheFile(t *testing.T) {
	fixtures := filepath.Join("..", "..", "core", "store", "testdata", "fixtures")
	cases := []struct {
		name, fixture string
		exit          int
		valid         bool
		workspaces    int
	}{
		{"unmigrated v0.1 file", "versions/v0.1.0/collab.sqlite", 0, true, 2},
		{"current v0.4 file", "versions/v0.4.0/collab.sqlite", 0, true, 2},
		{"corrupted chain", "edge/v0.4.0-lone-surrogate-actor/collab.sqlite", 1, false, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := copyTo(t, filepath.Join(fixtures, tc.fixture), t.TempDir())
			before := sum(t, db)
			var out, errOut bytes.Buffer
			code := run(context.Background(), []string{"verify", "--db", db, "--json"}, strings.NewReader(""), &out, &errOut)
			var report struct {
				AllValid   bool `json:"all_valid"`
				Workspaces []struct {
					ChainValid bool  `json:"chain_valid"`
					EventCount int64 `json:"event_count"`
				} `json:"workspaces"`
			}
			if err := json.Unmarshal(out.Bytes(), &report); err != nil {
				t.Fatalf("not JSON: %v\n%s%s", err, out.String(), errOut.String())
			}
			if code != tc.exit || report.AllValid != tc.valid || len(report.Workspaces) != tc.workspaces {
				t.Fatalf("exit %d, report %+v", code, report)
			}
			if sum(t, db) != before {
				t.Fatal("verify changed the database file")
			}
		})
	}
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"verify", "--db", filepath.Join(t.TempDir(), "absent.sqlite")}, nil, &out, &errOut); code != 2 {
		t.Fatalf("a missing database should exit 2, got %d (%s)", code, errOut.String())
	}
}
