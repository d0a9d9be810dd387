package storetest

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// offerRows are the offers the handoff checks store, in insertion order:
// neither their ids nor their offered_at run in that order, so a listing
// in another order shows.
func offerRows(ws, session string) []store.Handoff {
	s := func(v string) *string { return &v }
	row := func(id, task, from, to string, status store.HandoffStatus, offered string) store.Handoff {
		return store.Handoff{ID: id, WorkspaceID: ws, TaskID: task, FromActor: from, ToActor: to, Summary: "summary " + id,
			Status: status, OfferedAt: offered, ExpiresAt: later}
	}
	h3 := row("handoff_3", "task_a", "alice", "bob", store.HandoffPending, later)
	h1 := row("handoff_1", "task_b", "bob", "carol", store.HandoffDeclined, clock)
	h1.ResolvedAt = s(later)
	h2 := row("handoff_2", "task_a", "agent-"+ws, "bob", store.HandoffPending, clock)
	h2.FromSessionID, h2.ToSessionID = s(session), s("session_bob")
	h4 := row("handoff_4", "task_b", "alice", "bob", store.HandoffPending, clock)
	h4.ToSessionID = s(session)
	return []store.Handoff{h3, h1, h2, h4}
}

// handoffRowsStoreAndFilter checks Handoffs as storage: an offer
// round-trips every column, a listing keeps a workspace's offers in
// insertion order and narrows by each filter field, and UpdateHandoff
// writes only the columns that changed.
func handoffRowsStoreAndFilter(t *testing.T, e store.Engine) {
	defer e.Close()
	f := newTaskFixture(t, e, "ws_offers", "local-path:offers")
	other := newTaskFixture(t, e, "ws_offers_other", "local-path:offers_other")
	for _, id := range []string{"task_a", "task_b"} {
		f.insert(t, id, nil, true)
	}
	other.insert(t, "task_a", nil, false)
	rows := offerRows(f.ws, f.sessionID)
	f.mustWrite(t, "insert offers", func(ctx context.Context, tx store.Tx) error {
		for _, h := range rows {
			if err := tx.InsertHandoff(ctx, h); err != nil {
				return err
			}
		}
		elsewhere := offerRows(other.ws, other.sessionID)[0]
		elsewhere.ID = "handoff_elsewhere"
		return tx.InsertHandoff(ctx, elsewhere)
	})
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		for _, want := range rows {
			got, found, err := tx.Handoff(ctx, want.ID)
			if err != nil || !found || !reflect.DeepEqual(got, want) {
				return fmt.Errorf("Handoff %s: %+v found=%v (%v), want %+v", want.ID, got, found, err, want)
			}
		}
		if _, found, err := tx.Handoff(ctx, "handoff_none"); err != nil || found {
			return fmt.Errorf("Handoff of an unknown id: found=%v (%v)", found, err)
		}
		return checkOfferFilters(ctx, tx, f.ws, f.sessionID)
	})
	checkHandoffUpdates(t, f, rows)
}

// checkOfferFilters lists the offers through each filter field.
func checkOfferFilters(ctx context.Context, tx store.Tx, ws, session string) error {
	for _, c := range []struct {
		name   string
		filter store.HandoffFilter
		want   []string
	}{
		{"all", store.HandoffFilter{}, []string{"handoff_3", "handoff_1", "handoff_2", "handoff_4"}},
		{"task", store.HandoffFilter{TaskID: "task_b"}, []string{"handoff_1", "handoff_4"}},
		{"status", store.HandoffFilter{Status: store.HandoffPending}, []string{"handoff_3", "handoff_2", "handoff_4"}},
		{"to actor", store.HandoffFilter{ToActor: "bob"}, []string{"handoff_3", "handoff_2", "handoff_4"}},
		{"to actor, pending, task", store.HandoffFilter{ToActor: "bob", Status: store.HandoffPending, TaskID: "task_a"},
			[]string{"handoff_3", "handoff_2"}},
		{"to session", store.HandoffFilter{ToSessionID: session}, []string{"handoff_4"}},
		{"from actor", store.HandoffFilter{FromActor: "alice"}, []string{"handoff_3", "handoff_4"}},
		{"from session", store.HandoffFilter{FromSessionID: session}, []string{"handoff_2"}},
		{"nothing matches", store.HandoffFilter{ToActor: "bob", Status: store.HandoffExpired}, []string{}},
	} {
		list, err := tx.Handoffs(ctx, ws, c.filter)
		if err != nil {
			return fmt.Errorf("Handoffs %s: %w", c.name, err)
		}
		if got := ids(list, func(h store.Handoff) string { return h.ID }); !reflect.DeepEqual(got, c.want) {
			return fmt.Errorf("Handoffs %s: %v, want %v in insertion order", c.name, got, c.want)
		}
	}
	return nil
}

// checkHandoffUpdates resolves offers through UpdateHandoff: the changed
// columns are stored, and a column in which before and after agree is
// left as stored even when before misread it, so it was not written.
func checkHandoffUpdates(t *testing.T, f *taskFixture, rows []store.Handoff) {
	t.Helper()
	resolvedAt := "2026-01-01T00:30:00.000Z"
	accepted := rows[0]
	accepted.Status, accepted.ResolvedAt = store.HandoffAccepted, &resolvedAt
	misread := rows[2]
	misread.ResolvedAt = &resolvedAt
	declined := misread
	declined.Status = store.HandoffDeclined
	f.mustWrite(t, "update offers", func(ctx context.Context, tx store.Tx) error {
		if err := tx.UpdateHandoff(ctx, rows[0], accepted); err != nil {
			return err
		}
		if err := tx.UpdateHandoff(ctx, misread, declined); err != nil {
			return err
		}
		return tx.UpdateHandoff(ctx, rows[3], rows[3])
	})
	stored := rows[2]
	stored.Status = store.HandoffDeclined
	read(t, f.e, func(ctx context.Context, tx store.Tx) error {
		for _, want := range []store.Handoff{accepted, stored, rows[3]} {
			got, _, err := tx.Handoff(ctx, want.ID)
			if err != nil || !reflect.DeepEqual(got, want) {
				return fmt.Errorf("after UpdateHandoff %s: %+v (%v), want %+v", want.ID, got, err, want)
			}
		}
		return nil
	})
}
