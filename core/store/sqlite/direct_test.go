//go:build !collab_nodirect

package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/storetest"
)

// variedJournal is longJournal with rows a direct read must tell apart:
// a session id, an epoch other than the workspace's, the first protocol,
// empty and non-ASCII text.
func variedJournal(t *testing.T) string {
	t.Helper()
	path := longJournal(t, 50)
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, change := range []string{
		`UPDATE events SET session_id = 'sess_7' WHERE sequence = 7`,
		`UPDATE events SET epoch_id = 'epoch_before' WHERE sequence = 8`,
		`UPDATE events SET protocol = 'agenttool.collab.v1' WHERE sequence = 9`,
		`UPDATE events SET entity_id = '', actor = 'ünïcødé ✓' WHERE sequence = 10`,
		`UPDATE events SET session_id = '' WHERE sequence = 11`,
	} {
		if _, err := raw.Exec(change); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// driverEvents reads h's journal through database/sql's conversions.
func driverEvents(t *testing.T, db *DB, workspaceID string) (store.JournalHead, []journal.Event) {
	t.Helper()
	ctx := context.Background()
	var h store.JournalHead
	var events []journal.Event
	err := db.ReadChains(ctx, func(ec store.Chains) error {
		c := ec.(*chains)
		var err error
		if h, _, err = c.Head(ctx, workspaceID); err != nil {
			return err
		}
		return c.ScanEvents(ctx, h, func(e *journal.Event, rowErr error) error {
			if rowErr != nil {
				return rowErr
			}
			events = append(events, journalCopy(e))
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return h, events
}

// journalCopy is e with text of its own (a direct read's is borrowed).
func journalCopy(e *journal.Event) journal.Event {
	c := *e
	c.PayloadJSON = append([]byte(nil), e.PayloadJSON...)
	for _, s := range []*string{&c.WorkspaceID, &c.EpochID, &c.ID, &c.Protocol, &c.Type, &c.EntityID, &c.Actor,
		&c.OccurredAt, &c.PrevHash, &c.Hash} {
		*s = string(append([]byte(nil), *s...))
	}
	if e.SessionID != nil {
		sid := string(append([]byte(nil), *e.SessionID...))
		c.SessionID = &sid
	}
	return c
}

// TestDirectReadsTheEventsTheDriverReads holds a direct read of a journal
// to database/sql's reading of the same rows, field by field, whole and
// in spans.
func TestDirectReadsTheEventsTheDriverReads(t *testing.T) {
	path := variedJournal(t)
	ctx := context.Background()
	db, err := Open(ctx, Options{Path: path, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h, want := driverEvents(t, db, "ws_long")
	dc, err := openDirect(directURI(path, false))
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close()
	for _, sp := range []span{wholeJournal, {after: 6, upTo: 11}, {after: 49, upTo: 50}, {after: 50, upTo: 60}} {
		var got []journal.Event
		if err := streamDirect(ctx, dc, h, sp, func(e *journal.Event) error {
			got = append(got, journalCopy(e))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		wantSpan := []journal.Event{}
		for _, e := range want {
			if e.Sequence > sp.after && e.Sequence <= sp.upTo {
				wantSpan = append(wantSpan, e)
			}
		}
		if len(got) != len(wantSpan) {
			t.Fatalf("span %+v: %d events, want %d", sp, len(got), len(wantSpan))
		}
		for i := range got {
			if !reflect.DeepEqual(got[i], wantSpan[i]) {
				t.Fatalf("span %+v, event %d:\n got %+v\nwant %+v", sp, i, got[i], wantSpan[i])
			}
		}
	}
}

// TestDirectReadRefusesRowsOfTheWrongType checks that a column holding
// another storage class than a valid journal writes ends a direct read
// as unreadable, as the driver's reading does. (A number written to a
// text column is stored as text, so text columns are tried with blobs.)
func TestDirectReadRefusesRowsOfTheWrongType(t *testing.T) {
	for _, change := range []string{
		`UPDATE events SET payload_json = CAST(payload_json AS BLOB) WHERE sequence = 20`,
		`UPDATE events SET hash = x'00' WHERE sequence = 20`,
		`UPDATE events SET sequence = 20.5 WHERE sequence = 20`,
	} {
		t.Run(change, func(t *testing.T) {
			path := longJournal(t, 30)
			raw, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := raw.Exec(change); err != nil {
				t.Fatal(err)
			}
			raw.Close()
			dc, err := openDirect(directURI(path, false))
			if err != nil {
				t.Fatal(err)
			}
			defer dc.Close()
			h := store.JournalHead{WorkspaceID: "ws_long", Anchor: journal.Anchor{EpochID: "epoch_long"}}
			seen := 0
			err = streamDirect(context.Background(), dc, h, wholeJournal, func(*journal.Event) error { seen++; return nil })
			if !errors.Is(err, journal.ErrUnreadableEvent) || seen != 19 {
				t.Fatalf("after %d events: %v, want %v after 19", seen, err, journal.ErrUnreadableEvent)
			}
		})
	}
}

// TestDirectReadsAFileWhosePathLooksLikeURISyntax verifies a long journal
// whose directory name holds the characters a SQLite URI treats as syntax.
func TestDirectReadsAFileWhosePathLooksLikeURISyntax(t *testing.T) {
	src := longJournal(t, splitFrom+10)
	dir := filepath.Join(t.TempDir(), "a?b#c%d")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "collab.sqlite")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := Open(context.Background(), Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ok, found, err := storetest.VerifyChain(context.Background(), db, "ws_long")
	if err != nil || !found || !ok {
		t.Fatalf("VerifyChain: ok=%v found=%v err=%v", ok, found, err)
	}
}

// TestInspectingALongJournalLeavesNothingBesideIt verifies a cleanly
// closed long journal the way the verify command does (Inspect: the file
// read as immutable) and checks that its halves' direct connections
// created no -wal or -shm beside it.
func TestInspectingALongJournalLeavesNothingBesideIt(t *testing.T) {
	path := longJournal(t, splitFrom+10)
	db, err := Open(context.Background(), Options{Path: path, Inspect: true})
	if err != nil {
		t.Fatal(err)
	}
	ok, found, err := storetest.VerifyChain(context.Background(), db, "ws_long")
	db.Close()
	if err != nil || !found || !ok {
		t.Fatalf("VerifyChain: ok=%v found=%v err=%v", ok, found, err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Lstat(path + suffix); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s beside the inspected file: %v", suffix, err)
		}
	}
}
