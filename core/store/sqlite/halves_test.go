package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/storetest"
)

// longJournal writes a workspace whose journal holds n events (n at least
// splitFrom, so that VerifyChain reads it in halves) and returns the
// database's path.
func longJournal(t *testing.T, n int) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "collab.sqlite")
	db, err := Open(ctx, Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	e := Engine{DB: db}
	if err := e.Write(ctx, func(tx store.Tx) error {
		return tx.CreateWorkspace(ctx, store.NewWorkspace{ID: "ws_long", EpochID: "epoch_long", RootPath: "/long",
			Name: "long", RepositoryKey: "local-path:long", CreatedAt: "2026-01-01T00:00:00.000Z"})
	}); err != nil {
		t.Fatal(err)
	}
	for start := 0; start < n; start += 1000 {
		if err := appendLong(ctx, e, start, min(start+1000, n)); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// appendLong appends the events numbered from up to to (excluded) to the
// journal longJournal writes, in one transaction.
func appendLong(ctx context.Context, e Engine, from, to int) error {
	var hasher journal.Hasher
	return e.Write(ctx, func(tx store.Tx) error {
		for i := from; i < to; i++ {
			h, _, err := tx.Head(ctx, "ws_long")
			if err != nil {
				return err
			}
			ev := journal.Event{WorkspaceID: "ws_long", EpochID: h.EpochID, Sequence: h.Sequence + 1,
				ID: fmt.Sprintf("event_%d", i), Protocol: journal.ProtocolV2, Type: "task.progressed",
				EntityID: "task_1", Actor: "tester", OccurredAt: "2026-01-01T00:00:00.000Z",
				PayloadJSON: fmt.Appendf(nil, `{"n":%d}`, i), PrevHash: h.Hash}
			if ev.Hash, err = hasher.Hash(&ev); err != nil {
				return err
			}
			if err := tx.Append(ctx, &ev); err != nil {
				return err
			}
		}
		return nil
	})
}

// TestVerifyingInHalvesBesideAWriterThatCheckpoints verifies a long
// journal again and again while another connection appends to it and
// copies the WAL into the database file: every verification reads a
// consistent snapshot (through the read-ahead VFS where there is one), so
// every one finds the journal intact.
func TestVerifyingInHalvesBesideAWriterThatCheckpoints(t *testing.T) {
	path := longJournal(t, 5000)
	ctx := context.Background()
	db, err := Open(ctx, Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	stop, done := make(chan struct{}), make(chan error, 1)
	var appended atomic.Int64
	go func() {
		for i := 5000; ; i++ {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			if err := appendLong(ctx, Engine{DB: db}, i, i+1); err != nil {
				done <- err
				return
			}
			appended.Add(1)
			if i%5 == 0 {
				if _, err := raw.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`); err != nil {
					done <- err
					return
				}
			}
		}
	}()
	// At least 20 verifications, and as many as it takes for the writer to
	// have appended 50 events beside them, however slow the machine.
	for k := 0; k < 20 || appended.Load() < 50; k++ {
		ok, found, err := storetest.VerifyChain(ctx, db, "ws_long")
		if err != nil || !found || !ok {
			close(stop)
			<-done
			t.Fatalf("verification %d beside the writer: valid=%v found=%v err=%v", k, ok, found, err)
		}
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatalf("writer: %v", err)
	}
}

// TestVerifyingInHalvesFindsEveryBreak breaks a journal long enough to be
// read in two halves in each way a chain breaks, on either side of the cut
// and at it, and checks that VerifyChain finds it, and finds the intact
// journal intact.
func TestVerifyingInHalvesFindsEveryBreak(t *testing.T) {
	const n = 5000 // the cut is at 2,500
	for _, c := range []struct {
		name   string
		change string
		valid  bool
	}{
		{"intact", "", true},
		{"payload altered in the first half", `UPDATE events SET payload_json = '{"n":-1}' WHERE sequence = 100`, false},
		{"payload altered in the second half", `UPDATE events SET payload_json = '{"n":-1}' WHERE sequence = 4000`, false},
		{"event at the cut altered", `UPDATE events SET actor = 'someone else' WHERE sequence = 2500`, false},
		{"stored hash at the cut altered", `UPDATE events SET hash = prev_hash WHERE sequence = 2500`, false},
		{"event missing after the cut", `DELETE FROM events WHERE sequence = 2501`, false},
		{"event missing at the cut", `DELETE FROM events WHERE sequence = 2500`, false},
		{"event beyond the head", `INSERT INTO events (workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor,
occurred_at, payload_json, prev_hash, hash, session_id) SELECT workspace_id, epoch_id, 5001, 'event_extra', protocol, type,
entity_id, actor, occurred_at, payload_json, hash, hash, session_id FROM events WHERE sequence = 5000`, false},
		{"event before the first", `INSERT INTO events (workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor,
occurred_at, payload_json, prev_hash, hash, session_id) SELECT workspace_id, epoch_id, 0, 'event_zero', protocol, type,
entity_id, actor, occurred_at, payload_json, prev_hash, hash, session_id FROM events WHERE sequence = 1`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := longJournal(t, n)
			ctx := context.Background()
			if c.change != "" {
				raw, err := sql.Open("sqlite", path)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := raw.ExecContext(ctx, c.change); err != nil {
					t.Fatal(err)
				}
				raw.Close()
			}
			db, err := Open(ctx, Options{Path: path, ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ok, found, err := storetest.VerifyChain(ctx, db, "ws_long")
			if err != nil || !found {
				t.Fatalf("VerifyChain: found=%v err=%v", found, err)
			}
			if ok != c.valid {
				t.Fatalf("VerifyChain says valid=%v, want %v", ok, c.valid)
			}
		})
	}
}

// TestOpeningReadsLongJournalsInHalves breaks a long journal on either
// side of the cut and checks that opening the file for writing, which
// verifies every journal (in halves, on direct connections), refuses it,
// and opens the intact one.
func TestOpeningReadsLongJournalsInHalves(t *testing.T) {
	for _, c := range []struct {
		name, change string
	}{
		{"intact", ""},
		{"payload altered in the first half", `UPDATE events SET payload_json = '{"n":-1}' WHERE sequence = 100`},
		{"payload altered in the second half", `UPDATE events SET payload_json = '{"n":-1}' WHERE sequence = 4000`},
		{"payload stored as a blob", `UPDATE events SET payload_json = CAST(payload_json AS BLOB) WHERE sequence = 3000`},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := longJournal(t, 5000)
			if c.change != "" {
				raw, err := sql.Open("sqlite", path)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := raw.Exec(c.change); err != nil {
					t.Fatal(err)
				}
				raw.Close()
			}
			db, err := Open(context.Background(), Options{Path: path})
			if c.change == "" {
				if err != nil {
					t.Fatalf("the intact file is refused: %v", err)
				}
				db.Close()
				return
			}
			if ce, ok := collaberr.As(err); !ok || ce.Code != string(collaberr.DatabaseJournalInvalid) {
				if err == nil {
					db.Close()
				}
				t.Fatalf("Open: %v, want %s", err, collaberr.DatabaseJournalInvalid)
			}
		})
	}
}
