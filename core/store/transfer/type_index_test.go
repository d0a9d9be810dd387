package transfer

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/store/sqlite"
)

// TestCopyOfAFileWithTheTypeIndex copies a file holding the events type
// index: a new target does not gain it from the copy (its own opens add
// it once a journal is long), and a replaced target that holds it keeps
// an index SQLite maintained through the copy's writes.
func TestCopyOfAFileWithTheTypeIndex(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name      string
		replace   bool
		wantIndex int
	}{
		{"into a new file", false, 0},
		{"replacing a file with the index", true, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := copyFixture(t, fixtureV040)
			addTypeIndex(t, src)
			dst := filepath.Join(t.TempDir(), "copy.sqlite")
			if tc.replace {
				dst = copyFixture(t, fixtureV040)
				addTypeIndex(t, dst)
			}
			if _, err := Copy(ctx, Options{From: src, To: dst, Replace: tc.replace}); err != nil {
				t.Fatal(err)
			}
			raw := openRaw(t, dst)
			var n int
			if err := raw.QueryRow("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?", sqlite.TypeIndex).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != tc.wantIndex {
				t.Fatalf("the target holds %d type indexes, want %d", n, tc.wantIndex)
			}
			var check string
			if err := raw.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
				t.Fatalf("the target fails its integrity check: %s %v", check, err)
			}
		})
	}
}

func addTypeIndex(t *testing.T, path string) {
	t.Helper()
	if _, err := openRaw(t, path).Exec(sqlite.TypeIndexDDL); err != nil {
		t.Fatal(err)
	}
}
