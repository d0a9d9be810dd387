package store

import (
	"slices"
	"testing"
)

// TestPresenceRowsFollowTheRules checks what a heartbeat and a leave change
// in a hint, and nothing else.
func TestPresenceRowsFollowTheRules(t *testing.T) {
	left := "2026-01-01T00:05:00.000Z"
	joined := Presence{ID: "p", Version: 4, JoinedAt: "2026-01-01T00:00:00.000Z", LastSeenAt: "2026-01-01T00:01:00.000Z",
		PresenceExpiresAt: "2026-01-01T00:02:00.000Z", DeclaredCapabilities: []string{"x"}}
	cases := []struct {
		name string
		got  Presence
		want Presence
	}{
		{"a heartbeat moves the version, the last sight and the expiry", heartbeatRow(joined, "2026-01-01T00:03:00.000Z", "2026-01-01T00:04:00.000Z"),
			Presence{ID: "p", Version: 5, JoinedAt: joined.JoinedAt, LastSeenAt: "2026-01-01T00:03:00.000Z",
				PresenceExpiresAt: "2026-01-01T00:04:00.000Z", DeclaredCapabilities: []string{"x"}}},
		{"a leave moves the version and sets left_at only", leftRow(joined, left),
			Presence{ID: "p", Version: 5, JoinedAt: joined.JoinedAt, LastSeenAt: joined.LastSeenAt,
				PresenceExpiresAt: joined.PresenceExpiresAt, DeclaredCapabilities: []string{"x"}, LeftAt: &left}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, w := c.got, c.want
			if g.Version != w.Version || g.LastSeenAt != w.LastSeenAt || g.PresenceExpiresAt != w.PresenceExpiresAt ||
				g.JoinedAt != w.JoinedAt || !equalPtr(g.LeftAt, w.LeftAt) || !slices.Equal(g.DeclaredCapabilities, w.DeclaredCapabilities) {
				t.Fatalf("got %+v, want %+v", g, w)
			}
		})
	}
	if joined.Version != 4 || joined.LeftAt != nil {
		t.Fatalf("the rules changed the row they were given: %+v", joined)
	}
}

// TestPresencesSortMostRecentlySeenFirst checks the view's order: last
// sight descending, then id ascending, in byte order.
func TestPresencesSortMostRecentlySeenFirst(t *testing.T) {
	list := []Presence{
		{ID: "b", LastSeenAt: "2026-01-01T00:01:00.000Z"},
		{ID: "a", LastSeenAt: "2026-01-01T00:01:00.000Z"},
		{ID: "Z", LastSeenAt: "2026-01-01T00:01:00.000Z"},
		{ID: "c", LastSeenAt: "2026-01-01T00:03:00.000Z"},
		{ID: "d", LastSeenAt: "2026-01-01T00:00:00.000Z"},
	}
	sortBySeen(list)
	var ids []string
	for _, p := range list {
		ids = append(ids, p.ID)
	}
	if want := []string{"c", "Z", "a", "b", "d"}; !slices.Equal(ids, want) {
		t.Fatalf("order %v, want %v", ids, want)
	}
}
