package sqlite

import (
	"context"
	"database/sql"
	"testing"

	"github.com/agenttool/collab/core/store/storetest"
)

// TestOnePassFindsAnEventBeforeTheFirst stores a row with sequence 0 in a
// journal short enough to be verified in one pass of driver rows: the
// chain must break, as it does for a long journal read in halves.
func TestOnePassFindsAnEventBeforeTheFirst(t *testing.T) {
	ctx := context.Background()
	path := longJournal(t, 50)
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.ExecContext(ctx, `INSERT INTO events (workspace_id, epoch_id, sequence, id, protocol, type,
entity_id, actor, occurred_at, payload_json, prev_hash, hash, session_id) SELECT workspace_id, epoch_id, 0, 'event_zero',
protocol, type, entity_id, actor, occurred_at, payload_json, prev_hash, hash, session_id FROM events WHERE sequence = 1`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	db, err := Open(ctx, Options{Path: path, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ok, found, err := storetest.VerifyChain(ctx, db, "ws_long")
	if err != nil || !found || ok {
		t.Fatalf("VerifyChain: valid=%v found=%v err=%v, want an invalid chain", ok, found, err)
	}
}
