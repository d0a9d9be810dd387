package cli

import (
	"testing"

	"github.com/agenttool/collab/core/store"
)

// TestLabelsNameSessionsAsAPersonReadsThem: a label alone when one session
// bears it, with the short id when two do, with the whole id under --ids,
// and an unknown id as it is.
func TestLabelsNameSessionsAsAPersonReadsThem(t *testing.T) {
	sessions := []store.CoordinationSession{
		{ID: "session_b5975bff-1111-4111-8111-111111111111", Actor: "ben"},
		{ID: "session_c0ffee00-2222-4222-8222-222222222222", Actor: "cy"},
		{ID: "session_c0ffee11-3333-4333-8333-333333333333", Actor: "cy"},
	}
	cases := []struct {
		name string
		ids  bool
		id   string
		want string
	}{
		{"one bearer", false, sessions[0].ID, "ben"},
		{"a shared label", false, sessions[2].ID, "cy (session_c0ffee11)"},
		{"with --ids", true, sessions[0].ID, "ben (" + sessions[0].ID + ")"},
		{"an unknown id", false, "session_elsewhere", "session_elsewhere"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := newLabels(sessions, tc.ids).of(tc.id); got != tc.want {
				t.Errorf("of(%s) = %q, want %q", tc.id, got, tc.want)
			}
		})
	}
}
