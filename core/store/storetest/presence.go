package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// presenceAt is a new presence hint of a workspace joined at joined and
// expiring at expires.
func presenceAt(workspaceID, id, joined, expires string, caps ...string) store.NewPresence {
	return store.NewPresence{ID: id, WorkspaceID: workspaceID, EpochID: "epoch_" + workspaceID,
		ClientInstanceID: "client_" + id, ActorLabel: "agent", ActorKey: "session:" + id, RuntimeKind: "codex",
		DeclaredCapabilities: caps, JoinedAt: joined, ExpiresAt: expires}
}

func presenceIDs(list []store.Presence) []string {
	ids := []string{}
	for _, p := range list {
		ids = append(ids, p.ID)
	}
	return ids
}

// presencesFilteredByState lists presence hints by state at a moment, newest
// joined first (id descending on a tie), the limit applied after the
// state filter; the zero filter lists every hint, an empty listing is
// empty, not nil, and a filter the engine cannot apply is refused.
func presencesFilteredByState(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_presence")
	createWorkspace(t, e, "ws_presence_other")
	const ws, now = "ws_presence", "2026-01-01T00:10:00.000Z"
	write(t, e, func(ctx context.Context, tx store.Tx) error {
		for _, p := range []store.NewPresence{
			presenceAt(ws, "p_live_old", "2026-01-01T00:01:00.000Z", "2026-01-01T00:20:00.000Z"),
			presenceAt(ws, "p_stale", "2026-01-01T00:02:00.000Z", "2026-01-01T00:05:00.000Z"),
			presenceAt(ws, "p_at_edge", "2026-01-01T00:03:00.000Z", now),
			presenceAt(ws, "p_live_b", "2026-01-01T00:04:00.000Z", "2026-01-01T00:30:00.000Z"),
			presenceAt(ws, "p_live_a", "2026-01-01T00:04:00.000Z", "2026-01-01T00:30:00.000Z"),
			presenceAt(ws, "p_left", "2026-01-01T00:05:00.000Z", "2026-01-01T00:30:00.000Z"),
			presenceAt("ws_presence_other", "p_far", "2026-01-01T00:09:00.000Z", "2026-01-01T00:30:00.000Z"),
		} {
			if err := tx.InsertPresence(ctx, p); err != nil {
				return err
			}
		}
		return leave(ctx, tx, "p_left", "2026-01-01T00:06:00.000Z")
	})
	every := []string{"p_left", "p_live_b", "p_live_a", "p_at_edge", "p_stale", "p_live_old"}
	cases := []struct {
		name   string
		filter store.PresenceFilter
		want   []string
	}{
		{"the zero filter lists every hint, newest first", store.PresenceFilter{}, every},
		{"any, newest first", store.PresenceFilter{At: now, Limit: 100}, every},
		{"a limit alone keeps the newest", store.PresenceFilter{Limit: 3}, every[:3]},
		{"live excludes the hint expiring now", store.PresenceFilter{State: store.PresenceLive, At: now, Limit: 100},
			[]string{"p_live_b", "p_live_a", "p_live_old"}},
		{"stale includes the hint expiring now", store.PresenceFilter{State: store.PresenceStale, At: now, Limit: 100},
			[]string{"p_at_edge", "p_stale"}},
		{"left", store.PresenceFilter{State: store.PresenceLeft, At: now, Limit: 100}, []string{"p_left"}},
		{"limit after the filter", store.PresenceFilter{State: store.PresenceLive, At: now, Limit: 2},
			[]string{"p_live_b", "p_live_a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			read(t, e, func(ctx context.Context, tx store.Tx) error {
				list, err := tx.Presences(ctx, ws, c.filter)
				if err != nil {
					return err
				}
				if ids := presenceIDs(list); !slices.Equal(ids, c.want) {
					return fmt.Errorf("Presences(%+v) = %v, want %v", c.filter, ids, c.want)
				}
				return nil
			})
		})
	}
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		list, err := tx.Presences(ctx, "ws_nobody", store.PresenceFilter{})
		if err != nil || list == nil || len(list) != 0 {
			return fmt.Errorf("Presences of an empty workspace = %v, %v; want an empty list", list, err)
		}
		return nil
	})
	for _, bad := range []store.PresenceFilter{{State: "gone", At: now}, {State: store.PresenceLive}, {State: store.PresenceStale}} {
		read(t, e, func(ctx context.Context, tx store.Tx) error {
			if _, err := tx.Presences(ctx, ws, bad); err == nil {
				return fmt.Errorf("Presences(%+v) was accepted", bad)
			}
			return nil
		})
	}
}

// leave stores that the hint left at now, as the leave rule does.
func leave(ctx context.Context, tx store.Tx, id, now string) error {
	p, found, err := tx.Presence(ctx, store.PresenceKey{ID: id})
	if err != nil || !found {
		return fmt.Errorf("presence %s: found=%v err=%v", id, found, err)
	}
	after := p
	after.Version++
	after.LeftAt = &now
	return tx.UpdatePresence(ctx, p, after)
}

// presenceKeysFindOneRow stores hints and finds them by id and by client
// instance (in its own workspace only), every column read back as stored
// and the rules' fields left empty.
func presenceKeysFindOneRow(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_key")
	createWorkspace(t, e, "ws_key_other")
	provider := "openai"
	write(t, e, func(ctx context.Context, tx store.Tx) error {
		p := presenceAt("ws_key", "p_one", clock, "2026-01-01T00:01:00.000Z", "code.review", "a:b")
		p.ProviderLabel = &provider
		if err := tx.InsertPresence(ctx, p); err != nil {
			return err
		}
		return tx.InsertPresence(ctx, presenceAt("ws_key", "p_two", "2026-01-01T00:00:30.000Z", "2026-01-01T00:01:00.000Z"))
	})
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		p, found, err := tx.Presence(ctx, store.PresenceKey{ID: "p_one"})
		if err != nil || !found {
			return fmt.Errorf("Presence by id found=%v err=%v", found, err)
		}
		if p.Version != 1 || p.JoinedAt != clock || p.LastSeenAt != clock || p.LeftAt != nil ||
			p.ProviderLabel == nil || *p.ProviderLabel != provider || p.ModelLabel != nil ||
			!slices.Equal(p.DeclaredCapabilities, []string{"code.review", "a:b"}) || p.ActorKey != "session:p_one" {
			return fmt.Errorf("stored presence read back as %+v", p)
		}
		if p.Protocol != "" || p.Presence != "" || p.CapabilityBasis != "" {
			return fmt.Errorf("the engine set the rules' fields: %+v", p)
		}
		two, _, err := tx.Presence(ctx, store.PresenceKey{ID: "p_two"})
		if err != nil || two.DeclaredCapabilities == nil {
			return fmt.Errorf("a hint stored without capabilities reads back %v (%v), want an empty list", two.DeclaredCapabilities, err)
		}
		byClient, found, err := tx.Presence(ctx, store.PresenceKey{WorkspaceID: "ws_key", ClientInstanceID: "client_p_one"})
		if err != nil || !found || byClient.ID != "p_one" || !slices.Equal(byClient.DeclaredCapabilities, p.DeclaredCapabilities) {
			return fmt.Errorf("Presence by client in its workspace: %+v found=%v err=%v", byClient, found, err)
		}
		if _, found, err := tx.Presence(ctx, store.PresenceKey{WorkspaceID: "ws_key_other", ClientInstanceID: "client_p_one"}); err != nil || found {
			return fmt.Errorf("Presence by client in another workspace: found=%v err=%v", found, err)
		}
		if _, found, err := tx.Presence(ctx, store.PresenceKey{ID: "p_missing"}); err != nil || found {
			return fmt.Errorf("Presence of nobody: found=%v err=%v", found, err)
		}
		return nil
	})
}

// presenceUpdatesWriteChangedColumns checks that UpdatePresence stores a
// heartbeat's and a leave's columns, names only the columns that changed
// (a before that disagrees with storage on a column after leaves alone
// does not overwrite it), and refuses, writing nothing, a stale version,
// a version moved by other than one and a change of a lifelong column.
func presenceUpdatesWriteChangedColumns(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_beat")
	write(t, e, func(ctx context.Context, tx store.Tx) error {
		return tx.InsertPresence(ctx, presenceAt("ws_beat", "p_one", clock, "2026-01-01T00:01:00.000Z", "code.review"))
	})
	stored := func() store.Presence {
		var p store.Presence
		read(t, e, func(ctx context.Context, tx store.Tx) error {
			var err error
			p, _, err = tx.Presence(ctx, store.PresenceKey{ID: "p_one"})
			return err
		})
		return p
	}
	const beat, expiry, left = "2026-01-01T00:02:00.000Z", "2026-01-01T00:03:00.000Z", "2026-01-01T00:04:00.000Z"
	joined := stored()
	beaten := joined
	beaten.Version, beaten.LastSeenAt, beaten.PresenceExpiresAt = 2, beat, expiry
	write(t, e, func(ctx context.Context, tx store.Tx) error { return tx.UpdatePresence(ctx, joined, beaten) })
	if p := stored(); p.Version != 2 || p.LastSeenAt != beat || p.PresenceExpiresAt != expiry || p.JoinedAt != clock || p.LeftAt != nil {
		t.Fatalf("after a heartbeat: %+v", p)
	}
	refused := []struct {
		name          string
		before, after store.Presence
	}{
		{"a stale version", joined, beaten},
		{"a version moved by two", beaten, withVersion(beaten, 4)},
		{"the same version", beaten, beaten},
		{"a new actor label", beaten, withLabel(withVersion(beaten, 3), "someone")},
	}
	for _, c := range refused {
		err := e.Write(context.Background(), func(tx store.Tx) error { return tx.UpdatePresence(context.Background(), c.before, c.after) })
		if err == nil {
			t.Errorf("UpdatePresence with %s was accepted", c.name)
		}
		if p := stored(); p.Version != 2 || p.ActorLabel != "agent" || p.LastSeenAt != beat {
			t.Errorf("UpdatePresence with %s wrote %+v", c.name, p)
		}
	}
	// A before whose last sight disagrees with storage, and an after that
	// changes only left_at: the stored last sight stays.
	misread := beaten
	misread.LastSeenAt = "2026-01-01T00:09:00.000Z"
	gone := withVersion(misread, 3)
	gone.LeftAt = ptr(left)
	write(t, e, func(ctx context.Context, tx store.Tx) error { return tx.UpdatePresence(ctx, misread, gone) })
	if p := stored(); p.Version != 3 || p.LeftAt == nil || *p.LeftAt != left || p.LastSeenAt != beat || p.PresenceExpiresAt != expiry {
		t.Fatalf("after leaving: %+v", p)
	}
}

func withVersion(p store.Presence, v int64) store.Presence {
	p.Version = v
	return p
}

func withLabel(p store.Presence, label string) store.Presence {
	p.ActorLabel = label
	return p
}

// clientInstanceIsUniquePerWorkspace inserts a second hint for the same
// client instance of a workspace: the engine refuses it.
func clientInstanceIsUniquePerWorkspace(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_unique")
	first := presenceAt("ws_unique", "p_first", clock, clock)
	write(t, e, func(ctx context.Context, tx store.Tx) error { return tx.InsertPresence(ctx, first) })
	second := presenceAt("ws_unique", "p_second", clock, clock)
	second.ClientInstanceID = first.ClientInstanceID
	err := e.Write(context.Background(), func(tx store.Tx) error { return tx.InsertPresence(context.Background(), second) })
	if err == nil {
		t.Fatal("a second presence hint for the same client instance was accepted")
	}
}

func ptr(s string) *string { return &s }
