package store_test

import (
	"context"

	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/postgres/pgtest"
)

// TestDeliveryReceiptsOnBothEngines walks one addressed report through
// every receipt on SQLite and on PostgreSQL: announced (once per channel,
// whatever the repeats), read only once the recipient's cursor passed it,
// then handled; a receipt never moves the cursor, and the sender reads
// the same facts.
func TestDeliveryReceiptsOnBothEngines(t *testing.T) {
	engines := []struct {
		name string
		path func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "collab.sqlite") }},
		{"postgres", func(t *testing.T) string {
			t.Setenv("XDG_DATA_HOME", t.TempDir())
			return pgtest.FreshDatabase(t)
		}},
	}
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			ctx := context.Background()
			st, err := backend.Open(ctx, backend.Options{Path: e.path(t), Observe: fixedObserve})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			root := t.TempDir()
			start := func(actor string) store.StartedSession {
				ss, err := st.StartSession(ctx, store.StartSessionInput{RootPath: root, Actor: actor})
				if err != nil {
					t.Fatal(err)
				}
				return ss
			}
			alice, bob := start("alice"), start("bob")
			ws := alice.Workspace.ID
			if _, err := st.AppendReport(ctx, cred(alice), store.AppendReportInput{IdempotencyKey: "r1", ToSessionID: &bob.Session.ID,
				Kind: "observation", Body: "for bob"}); err != nil {
				t.Fatal(err)
			}
			subs, err := st.SentAddressed(ctx, ws, alice.Session.ID, 10)
			if err != nil || len(subs) != 1 {
				t.Fatalf("alice's addressed reports: %v %v", subs, err)
			}
			receipts := func() store.DeliveryReceipts {
				t.Helper()
				got, err := st.DeliveryReceiptsOf(ctx, ws, subs)
				if err != nil || len(got) != 1 {
					t.Fatalf("receipts: %v %v", got, err)
				}
				return got[0]
			}
			for i, want := range []int{1, 0, 1} {
				channel := []string{store.ChannelWait, store.ChannelWait, store.ChannelHook}[i]
				if n, err := st.RecordAnnouncement(ctx, cred(bob), channel, subs); err != nil || n != want {
					t.Fatalf("announcement %d through %s: %d, %v; want %d", i, channel, n, err, want)
				}
			}
			if _, err := st.RecordAnnouncement(ctx, cred(alice), store.ChannelHook, subs); err == nil {
				t.Fatal("the sender recorded an announcement of its own report")
			}
			r := receipts()
			if len(r.Announced) != 2 || r.Read || r.Mark != nil {
				t.Fatalf("after the announcements: %+v", r)
			}
			snap, err := st.WakeForSession(ctx, cred(bob), nil, 10)
			if err != nil {
				t.Fatal(err)
			}
			sess, err := st.Session(ctx, bob.Session.ID)
			if err != nil || sess.Cursor.Sequence != 0 {
				t.Fatalf("announcing moved bob's cursor: %+v %v", sess.Cursor, err)
			}
			if _, err := st.AckCursor(ctx, cred(bob), ws, snap.Head, sess.CursorVersion); err != nil {
				t.Fatal(err)
			}
			if r := receipts(); !r.Read || r.RecipientCursor != snap.Head.Sequence {
				t.Fatalf("after bob acknowledged: %+v", r)
			}
			note := "done"
			if m, err := st.MarkDelivery(ctx, cred(bob), subs[0], store.MarkHandled, &note); err != nil || m.Replayed {
				t.Fatalf("mark: %+v %v", m, err)
			}
			if _, err := st.MarkDelivery(ctx, cred(bob), subs[0], store.MarkDeclined, nil); err == nil {
				t.Fatal("a second, different mark was accepted")
			}
			r = receipts()
			if r.Mark == nil || r.Mark.State != store.MarkHandled || *r.Mark.Note != "done" || len(r.Announced) != 2 || !r.Read {
				t.Fatalf("all three receipts: %+v", r)
			}
		})
	}
}
