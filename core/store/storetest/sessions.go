package storetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// sessionWritesAreVersioned checks UpdateSession as storage: it writes
// only the columns in which after differs from before (a column another
// write changed since keeps that write's value), a write that moves the
// generation applies only at before's generation, and every column it is
// given comes back.
func sessionWritesAreVersioned(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_sess")
	createSession(t, e, "ws_sess", "s_one")
	var read0 store.CoordinationSession
	write(t, e, func(ctx context.Context, tx store.Tx) error {
		s, found, err := tx.Session(ctx, "s_one")
		if err != nil || !found {
			return fmt.Errorf("read s_one: found=%v, %v", found, err)
		}
		read0 = s
		seen := s
		seen.LastSeenAt = "2026-02-01T00:00:00.000Z"
		_, err = tx.UpdateSession(ctx, s, seen)
		return err
	})
	moved := read0
	moved.Cursor, moved.CursorVersion = journal.Anchor{EpochID: "epoch_ws_sess", Sequence: 4, Hash: "h4"}, 1
	ended := "2026-02-02T00:00:00.000Z"
	fenced := moved
	fenced.Generation, fenced.Status, fenced.EndedAt, fenced.TokenHash = 2, store.SessionEnded, &ended, "hash_2"
	fenced.ResetGeneration, fenced.CursorRecoveryRequired = 3, true
	write(t, e, func(ctx context.Context, tx store.Tx) error {
		if _, err := tx.UpdateSession(ctx, read0, moved); err != nil {
			return err
		}
		stale := read0
		stale.Generation = 7
		if ok, err := tx.UpdateSession(ctx, stale, fenced); err != nil || ok {
			return fmt.Errorf("a write fenced by a stale generation: ok=%v, %v; want refused", ok, err)
		}
		if ok, err := tx.UpdateSession(ctx, moved, fenced); err != nil || !ok {
			return fmt.Errorf("a write fenced by the stored generation: ok=%v, %v; want applied", ok, err)
		}
		return nil
	})
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		got, _, err := tx.Session(ctx, "s_one")
		if err != nil {
			return err
		}
		want := fenced
		want.LastSeenAt = "2026-02-01T00:00:00.000Z"
		if got.LastSeenAt != want.LastSeenAt || got.Cursor != want.Cursor || got.CursorVersion != 1 ||
			got.Generation != 2 || got.Status != store.SessionEnded || got.EndedAt == nil || *got.EndedAt != ended ||
			got.TokenHash != "hash_2" || got.ResetGeneration != 3 || !got.CursorRecoveryRequired {
			return fmt.Errorf("stored %+v, want %+v", got, want)
		}
		return nil
	})
}
