package sqlite

import (
	"context"
	"database/sql"
	"testing"
)

// TestOpenRecordsOnlyHeadsItVerified opens real files and requires the
// verified head table to hold, after each open, exactly the head that
// open verified: nothing for a journal too short to be worth a write (the
// file keeps the reference's tables), the head once enough events were
// verified, and a record that anchored nothing (beyond the head, another
// epoch) replaced by the head its open verified from genesis.
func TestOpenRecordsOnlyHeadsItVerified(t *testing.T) {
	cases := []struct {
		name   string
		events int
		forge  string // run on the file before the open, after a first open recorded its head
		want   int64  // the recorded sequence after the open; 0 for no table at all
	}{
		{"a short journal is not recorded", recordAfter - 1, "", 0},
		{"a long journal records its head", recordAfter + 10, "", recordAfter + 10},
		{"a record beyond the head is replaced", recordAfter + 10,
			"UPDATE journal_verified_heads SET sequence = sequence + 50", recordAfter + 10},
		{"a record of another epoch is replaced", recordAfter + 10,
			"UPDATE journal_verified_heads SET epoch_id = 'epoch_other'", recordAfter + 10},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			path := longJournal(t, tc.events)
			if tc.forge != "" {
				openAndClose(t, path)
				execRaw(t, path, tc.forge)
			}
			openAndClose(t, path)
			raw := rawFile(t, path)
			has, err := tableExists(ctx, raw, VerifiedHeadsTable)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == 0 {
				if has {
					t.Fatal("an open of a short journal created the verified head table")
				}
				return
			}
			var seq int64
			var epoch, hash, headHash string
			if err := raw.QueryRowContext(ctx, `SELECT r.sequence, r.epoch_id, r.hash, w.event_head_hash
FROM journal_verified_heads r JOIN workspaces w ON w.id = r.workspace_id AND w.epoch_id = r.epoch_id`).Scan(&seq, &epoch,
				&hash, &headHash); err != nil {
				t.Fatalf("read the record: %v", err)
			}
			if seq != tc.want || hash != headHash {
				t.Fatalf("recorded %d %s, want the head %d %s", seq, hash, tc.want, headHash)
			}
		})
	}
}

func openAndClose(t *testing.T, path string) {
	t.Helper()
	db, err := Open(context.Background(), Options{Path: path})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	db.Close()
}

func execRaw(t *testing.T, path, stmt string) {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(stmt); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}
