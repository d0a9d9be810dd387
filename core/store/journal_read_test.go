package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// TestJournalReaderReadsEveryReleasedLayoutUnmigrated opens each
// reference release's database read-only (so nothing migrates) and reads
// every journal through ReadJournal: the heads are the manifest's, each
// journal chains from genesis to its head, events of layouts without a
// session column carry no session, and the file is left byte for byte.
func TestJournalReaderReadsEveryReleasedLayoutUnmigrated(t *testing.T) {
	for _, version := range []string{"v0.1.0", "v0.2.0", "v0.3.0", "v0.3.1", "v0.4.0"} {
		t.Run(version, func(t *testing.T) {
			dir := filepath.Join("testdata", "fixtures", "versions", version)
			m := loadManifest(t, dir)
			path := copyFixture(t, filepath.Join(dir, "collab.sqlite"))
			before := fileSHA(t, path)
			st, err := backend.Open(context.Background(), backend.Options{Path: path, ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]store.JournalHead{}
			for _, w := range m.Workspaces {
				want[w.ID] = store.JournalHead{WorkspaceID: w.ID, Anchor: journal.Anchor{Sequence: w.HeadSequence, Hash: w.HeadHash}}
			}
			ctx := context.Background()
			err = st.ReadJournal(ctx, func(r *store.JournalReader) error {
				heads, err := r.Heads(ctx)
				if err != nil {
					return err
				}
				if len(heads) != len(want) {
					t.Errorf("%d heads, want the manifest's %d", len(heads), len(want))
				}
				for i, h := range heads {
					if i > 0 && heads[i-1].WorkspaceID >= h.WorkspaceID {
						t.Errorf("heads out of workspace id order: %s before %s", heads[i-1].WorkspaceID, h.WorkspaceID)
					}
					w, ok := want[h.WorkspaceID]
					if !ok || h.Sequence != w.Sequence || h.Hash != w.Hash {
						t.Errorf("head %+v, manifest %+v", h, w)
					}
					v := journal.NewVerifier(0, journal.GenesisHash)
					count := int64(0)
					err := r.Events(ctx, h.WorkspaceID, 0, func(e *journal.Event) error {
						count++
						if e.Protocol == journal.ProtocolV1 && e.SessionID != nil {
							t.Errorf("0.1 event %d carries session %q", e.Sequence, *e.SessionID)
						}
						v.Next(e)
						return nil
					})
					if err != nil {
						return err
					}
					if seq, hash := v.Last(); !v.Valid() || seq != h.Sequence || hash != h.Hash || count != h.Sequence {
						t.Errorf("%s: %d events chain to %d/%s (valid=%v), want the head %d/%s",
							h.WorkspaceID, count, seq, hash, v.Valid(), h.Sequence, h.Hash)
					}
					if h.Sequence > 0 {
						a, found, err := r.EventAnchor(ctx, h.WorkspaceID, h.Sequence)
						if err != nil || !found || a != h.Anchor {
							t.Errorf("EventAnchor at the head: %+v found=%v (%v), want %+v", a, found, err, h.Anchor)
						}
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			if after := fileSHA(t, path); after != before {
				t.Fatalf("reading the journal changed the file")
			}
		})
	}
}
