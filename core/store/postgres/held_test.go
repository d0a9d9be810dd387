package postgres

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/agenttool/collab/core/store"
)

// TestWrittenTablesNamesEveryTableAWriteChanges checks the tables read
// from a held write's text, which decide when it must be sent.
func TestWrittenTablesNamesEveryTableAWriteChanges(t *testing.T) {
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"INSERT INTO mutations (workspace_id, actor) VALUES ($1, $2)", []string{"mutations"}},
		{"UPDATE coordination_sessions SET last_seen_at = $1 WHERE id = $2", []string{"coordination_sessions"}},
		{"WITH appended AS (INSERT INTO events (workspace_id) VALUES ($1) RETURNING workspace_id)\n" +
			"UPDATE workspaces SET event_head_sequence = $2 WHERE id = (SELECT workspace_id FROM appended)",
			[]string{"events", "workspaces"}},
		{"insert into Reports(id) values ($1)", []string{"reports"}},
		{"DELETE FROM path_claims WHERE task_id = $1", []string{"path_claims"}},
		{"SELECT pg_advisory_xact_lock($1)", nil},
	} {
		if got := writtenTables(c.query); !slices.Equal(got, c.want) {
			t.Errorf("writtenTables(%q) = %q, want %q", c.query, got, c.want)
		}
	}
}

// testReceipt is a receipt for the held-write tests.
func testReceipt(key string) (store.ReceiptScope, store.Receipt) {
	return store.ReceiptScope{WorkspaceID: "ws_held", Actor: "actor", Key: key},
		store.Receipt{Operation: "test.op", RequestHash: "hash-" + key, Response: []byte(`{"ok":true}`)}
}

// heldWorkspace opens an engine on a fresh database with workspace
// ws_held in it.
func heldWorkspace(t *testing.T) *Engine {
	t.Helper()
	ctx := context.Background()
	e, err := Open(ctx, freshDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if err := e.Write(ctx, func(tx store.Tx) error {
		return tx.CreateWorkspace(ctx, store.NewWorkspace{ID: "ws_held", EpochID: "epoch_held", RootPath: "/held",
			Name: "held", RepositoryKey: "local-path:held", CreatedAt: "2026-01-01T00:00:00.000Z"})
	}); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestHeldWritesWaitForAStatementThatNamesTheirTable checks that a write
// whose result is not read stays held across statements about other
// tables, is sent before a statement that reads its table (which then
// sees it), and that what is still held at the end goes with the COMMIT.
func TestHeldWritesWaitForAStatementThatNamesTheirTable(t *testing.T) {
	e := heldWorkspace(t)
	ctx := context.Background()
	err := e.Write(ctx, func(etx store.Tx) error {
		tx := etx.(*Tx)
		if _, _, err := tx.Workspace(ctx, "ws_held"); err != nil { // sends the BEGIN
			return err
		}
		scope, r := testReceipt("first")
		if err := tx.InsertReceipt(ctx, scope, r, "2026-01-01T00:00:00.000Z"); err != nil {
			return err
		}
		if len(tx.held) != 1 {
			t.Fatalf("after InsertReceipt %d writes are held, want 1", len(tx.held))
		}
		if _, err := tx.Tasks(ctx, "ws_held", store.TaskFilter{}); err != nil {
			return err
		}
		if len(tx.held) != 1 {
			t.Fatalf("a query of tasks sent the held receipt (%d held)", len(tx.held))
		}
		got, found, err := tx.FindReceipt(ctx, scope)
		if err != nil {
			return err
		}
		if !found || got.RequestHash != r.RequestHash || len(tx.held) != 0 {
			t.Fatalf("reading mutations: found=%v (%+v), %d still held; want the held receipt sent and read", found, got, len(tx.held))
		}
		scope2, r2 := testReceipt("second")
		return tx.InsertReceipt(ctx, scope2, r2, "2026-01-01T00:00:00.000Z")
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"first", "second"} {
		scope, _ := testReceipt(key)
		var found bool
		if err := e.Read(ctx, func(tx store.Tx) error {
			_, found, err = tx.FindReceipt(ctx, scope)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if !found {
			t.Errorf("receipt %q was not committed", key)
		}
	}
}

// TestAFailedHeldWriteIsWhatWriteReturns checks that a held write which
// fails when it is finally sent, under a later statement or with the
// COMMIT, fails the whole transaction with its own error (so that Write's
// retry rules see the server's code), and that nothing of the transaction
// is kept.
func TestAFailedHeldWriteIsWhatWriteReturns(t *testing.T) {
	e := heldWorkspace(t)
	ctx := context.Background()
	scope, r := testReceipt("taken")
	if err := e.Write(ctx, func(tx store.Tx) error {
		return tx.InsertReceipt(ctx, scope, r, "2026-01-01T00:00:00.000Z")
	}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		then func(tx store.Tx) error
	}{
		{"sent under a later query", func(tx store.Tx) error {
			_, _, err := tx.FindReceipt(ctx, scope) // the query fails in the aborted transaction
			return err
		}},
		{"sent with the commit", func(store.Tx) error { return nil }},
	} {
		t.Run(c.name, func(t *testing.T) {
			other, otherReceipt := testReceipt("other " + c.name)
			err := e.Write(ctx, func(tx store.Tx) error {
				if err := tx.InsertReceipt(ctx, other, otherReceipt, "2026-01-01T00:00:00.000Z"); err != nil {
					return err
				}
				if err := tx.InsertReceipt(ctx, scope, r, "2026-01-01T00:00:00.000Z"); err != nil {
					return err
				}
				return c.then(tx)
			})
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != "23505" {
				t.Fatalf("Write returned %v, want the held insert's unique violation (23505)", err)
			}
			var found bool
			if err := e.Read(ctx, func(tx store.Tx) error {
				_, found, err = tx.FindReceipt(ctx, other)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if found {
				t.Fatal("a write of the failed transaction was kept")
			}
		})
	}
}

// TestATransactionReadsTheEventsItAppended checks that held appends are
// sent before the same transaction reads its journal, that the workspace
// row it knows from Head shows the head they moved, and that this head is
// the one stored.
func TestATransactionReadsTheEventsItAppended(t *testing.T) {
	e := heldWorkspace(t)
	ctx := context.Background()
	if err := e.Write(ctx, func(tx store.Tx) error {
		for _, id := range []string{"one", "two"} {
			if err := appendAtHead(ctx, tx, "ws_held", id); err != nil {
				return err
			}
		}
		events, err := tx.Events(ctx, "ws_held", store.EventRange{Limit: 10})
		if err != nil {
			return err
		}
		if len(events) != 2 || events[1].PrevHash != events[0].Hash {
			t.Fatalf("the transaction read %d events of the 2 it appended", len(events))
		}
		w, _, err := tx.Workspace(ctx, "ws_held")
		if err == nil && (w.EventHeadSequence != 2 || w.EventHeadHash != events[1].Hash || w.Name != "held") {
			t.Fatalf("inside the transaction the workspace reads %+v, want its head at event 2", w)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := e.Read(ctx, func(tx store.Tx) error {
		w, _, err := tx.Workspace(ctx, "ws_held")
		if err == nil && w.EventHeadSequence != 2 {
			t.Errorf("stored head is at %d, want 2", w.EventHeadSequence)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}
