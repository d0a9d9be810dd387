package store

import (
	"context"
	"slices"
	"strings"
)

// What a heartbeat and a leave change in a presence hint, and the order
// the view lists hints in: the rules over Presences' rows.

// heartbeatRow is p after a heartbeat at now: the next version, last seen
// at now, expiring at expiresAt (a stale hint revives).
func heartbeatRow(p Presence, now, expiresAt string) Presence {
	p.Version++
	p.LastSeenAt, p.PresenceExpiresAt = now, expiresAt
	return p
}

// leftRow is p after leaving at now: the next version, left at now; its
// last sight and expiry stay as they were.
func leftRow(p Presence, now string) Presence {
	p.Version++
	p.LeftAt = &now
	return p
}

// presenceByID reads one hint by id.
func presenceByID(ctx context.Context, q Presences, id string) (Presence, bool, error) {
	return q.Presence(ctx, PresenceKey{ID: id})
}

// presencesBySeen lists every hint of a workspace, most recently seen
// first, then by id in byte order (what ORDER BY last_seen_at DESC, id
// gave on both engines). The whole workspace is read either way, so the
// order costs a sort of what was read and no index.
func presencesBySeen(ctx context.Context, q Presences, workspaceID string) ([]Presence, error) {
	list, err := q.Presences(ctx, workspaceID, PresenceFilter{})
	if err != nil {
		return nil, err
	}
	sortBySeen(list)
	return list, nil
}

// sortBySeen orders hints by last_seen_at descending, then id ascending,
// both in byte order.
func sortBySeen(list []Presence) {
	slices.SortFunc(list, func(a, b Presence) int {
		if c := strings.Compare(b.LastSeenAt, a.LastSeenAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}
