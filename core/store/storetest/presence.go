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

// presenceListedByState lists presence hints by state at a moment, newest
// joined first (id descending on a tie), the limit applied after the
// state filter; an empty listing is empty, not nil.
func presenceListedByState(t *testing.T, e store.Engine) {
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
		return tx.MarkPresenceLeft(ctx, "p_left", "2026-01-01T00:06:00.000Z")
	})
	cases := []struct {
		name  string
		state store.PresenceState
		limit int64
		want  []string
	}{
		{"any, newest first", store.PresenceAny, 100, []string{"p_left", "p_live_b", "p_live_a", "p_at_edge", "p_stale", "p_live_old"}},
		{"live excludes the hint expiring now", store.PresenceLive, 100, []string{"p_live_b", "p_live_a", "p_live_old"}},
		{"stale includes the hint expiring now", store.PresenceStale, 100, []string{"p_at_edge", "p_stale"}},
		{"left", store.PresenceLeft, 100, []string{"p_left"}},
		{"limit after the filter", store.PresenceLive, 2, []string{"p_live_b", "p_live_a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			read(t, e, func(ctx context.Context, tx store.Tx) error {
				list, err := tx.PresenceList(ctx, ws, c.state, now, c.limit)
				if err != nil {
					return err
				}
				if ids := presenceIDs(list); !slices.Equal(ids, c.want) {
					return fmt.Errorf("PresenceList(%q, limit %d) = %v, want %v", c.state, c.limit, ids, c.want)
				}
				return nil
			})
		})
	}
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		list, err := tx.PresenceList(ctx, "ws_nobody", store.PresenceAny, now, 100)
		if err != nil || list == nil || len(list) != 0 {
			return fmt.Errorf("PresenceList of an empty workspace = %v, %v; want an empty list", list, err)
		}
		return nil
	})
}

// presenceUpdatesCountVersions stores a hint, finds it by id and by client
// instance (in its own workspace only), and checks that a heartbeat and a
// leave each increment its version and record their times; the listing
// by last sight follows the heartbeat.
func presenceUpdatesCountVersions(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_beat")
	createWorkspace(t, e, "ws_beat_other")
	provider := "openai"
	write(t, e, func(ctx context.Context, tx store.Tx) error {
		p := presenceAt("ws_beat", "p_one", clock, "2026-01-01T00:01:00.000Z", "code.review", "a:b")
		p.ProviderLabel = &provider
		if err := tx.InsertPresence(ctx, p); err != nil {
			return err
		}
		return tx.InsertPresence(ctx, presenceAt("ws_beat", "p_two", "2026-01-01T00:00:30.000Z", "2026-01-01T00:01:00.000Z"))
	})
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		p, found, err := tx.PresenceByID(ctx, "p_one")
		if err != nil || !found {
			return fmt.Errorf("PresenceByID found=%v err=%v", found, err)
		}
		if p.Version != 1 || p.JoinedAt != clock || p.LastSeenAt != clock || p.LeftAt != nil ||
			p.ProviderLabel == nil || *p.ProviderLabel != provider || p.ModelLabel != nil ||
			!slices.Equal(p.DeclaredCapabilities, []string{"code.review", "a:b"}) || p.ActorKey != "session:p_one" {
			return fmt.Errorf("stored presence read back as %+v", p)
		}
		if p.Protocol != "" || p.Presence != "" || p.CapabilityBasis != "" {
			return fmt.Errorf("the engine set the rules' fields: %+v", p)
		}
		two, _, err := tx.PresenceByID(ctx, "p_two")
		if err != nil || two.DeclaredCapabilities == nil {
			return fmt.Errorf("a hint stored without capabilities reads back %v (%v), want an empty list", two.DeclaredCapabilities, err)
		}
		if _, found, err := tx.PresenceOfClient(ctx, "ws_beat", "client_p_one"); err != nil || !found {
			return fmt.Errorf("PresenceOfClient in its workspace: found=%v err=%v", found, err)
		}
		if _, found, err := tx.PresenceOfClient(ctx, "ws_beat_other", "client_p_one"); err != nil || found {
			return fmt.Errorf("PresenceOfClient in another workspace: found=%v err=%v", found, err)
		}
		if _, found, err := tx.PresenceByID(ctx, "p_missing"); err != nil || found {
			return fmt.Errorf("PresenceByID of nobody: found=%v err=%v", found, err)
		}
		return nil
	})
	const beat, expiry, left = "2026-01-01T00:02:00.000Z", "2026-01-01T00:03:00.000Z", "2026-01-01T00:04:00.000Z"
	write(t, e, func(ctx context.Context, tx store.Tx) error { return tx.RefreshPresence(ctx, "p_one", beat, expiry) })
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		p, _, err := tx.PresenceByID(ctx, "p_one")
		if err != nil || p.Version != 2 || p.LastSeenAt != beat || p.PresenceExpiresAt != expiry || p.JoinedAt != clock {
			return fmt.Errorf("after a heartbeat: %+v, %v", p, err)
		}
		seen, err := tx.PresenceBySeen(ctx, "ws_beat")
		if ids := presenceIDs(seen); err != nil || !slices.Equal(ids, []string{"p_one", "p_two"}) {
			return fmt.Errorf("PresenceBySeen = %v, %v; want the heartbeat first", ids, err)
		}
		return nil
	})
	write(t, e, func(ctx context.Context, tx store.Tx) error { return tx.MarkPresenceLeft(ctx, "p_one", left) })
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		p, _, err := tx.PresenceByID(ctx, "p_one")
		if err != nil || p.Version != 3 || p.LeftAt == nil || *p.LeftAt != left || p.LastSeenAt != beat {
			return fmt.Errorf("after leaving: %+v, %v", p, err)
		}
		empty, err := tx.PresenceBySeen(ctx, "ws_nobody")
		if err != nil || empty == nil || len(empty) != 0 {
			return fmt.Errorf("PresenceBySeen of an empty workspace = %v, %v; want an empty list", empty, err)
		}
		return nil
	})
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
