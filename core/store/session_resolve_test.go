package store_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/store"
)

// sessionsForNames is a workspace's sessions as ResolveSession lists them:
// live ones first, most recently seen first.
var sessionsForNames = []store.CoordinationSession{
	{ID: "session_b5975bff-1111-4111-8111-111111111111", Actor: "ben", Status: store.SessionActive, LastSeenAt: "2026-07-01T12:05:00.000Z"},
	{ID: "session_c0ffee00-2222-4222-8222-222222222222", Actor: "cy", Status: store.SessionActive, LastSeenAt: "2026-07-01T12:04:00.000Z"},
	{ID: "session_c0ffee11-3333-4333-8333-333333333333", Actor: "cy", Status: store.SessionActive, LastSeenAt: "2026-07-01T12:03:00.000Z"},
	{ID: "session_ada00000-4444-4444-8444-444444444444", Actor: "Ada", Status: store.SessionActive, LastSeenAt: "2026-07-01T12:02:00.000Z"},
	{ID: "session_dead0000-5555-4555-8555-555555555555", Actor: "dora", Status: store.SessionEnded, LastSeenAt: "2026-07-01T11:00:00.000Z"},
	{ID: "session_beef0000-6666-4666-8666-666666666666", Actor: "ben", Status: store.SessionEnded, LastSeenAt: "2026-07-01T10:00:00.000Z"},
}

// TestChooseSessionTurnsWhatAPersonTypedIntoOneSession names sessions
// every way a person might and checks the one chosen, or the refusal and
// the candidates it offers.
func TestChooseSessionTurnsWhatAPersonTypedIntoOneSession(t *testing.T) {
	cases := []struct {
		name, typed string
		want        string   // chosen session id; empty for a refusal
		ambiguous   bool     // for a refusal
		candidates  []string // for a refusal, their short ids in order
	}{
		{"a full id, even of an ended session", "session_dead0000-5555-4555-8555-555555555555", "session_dead0000-5555-4555-8555-555555555555", false, nil},
		{"the label of the one live session bearing it", "ben", "session_b5975bff-1111-4111-8111-111111111111", false, nil},
		{"a label with surrounding blanks", "  ben ", "session_b5975bff-1111-4111-8111-111111111111", false, nil},
		{"a label in another case", "ada", "session_ada00000-4444-4444-8444-444444444444", false, nil},
		{"the short id the views print", "session_c0ffee11", "session_c0ffee11-3333-4333-8333-333333333333", false, nil},
		{"hex digits without the session_ prefix", "c0ffee00", "session_c0ffee00-2222-4222-8222-222222222222", false, nil},
		{"an id prefix in upper case", "C0FFEE00", "session_c0ffee00-2222-4222-8222-222222222222", false, nil},
		{"an id prefix of an ended session", "beef", "session_beef0000-6666-4666-8666-666666666666", false, nil},
		{"a label two live sessions bear", "cy", "", true, []string{"session_c0ffee00", "session_c0ffee11"}},
		{"an id prefix two sessions share", "c0ffee", "", true, []string{"session_c0ffee00", "session_c0ffee11"}},
		{"too few digits to be an id", "ada", "session_ada00000-4444-4444-8444-444444444444", false, nil},
		{"three hex digits are not an id prefix", "dea", "", false, []string{"session_b5975bff", "session_c0ffee00", "session_c0ffee11", "session_ada00000"}},
		{"the label of an ended session only", "dora", "", false, []string{"session_dead0000", "session_b5975bff", "session_c0ffee00", "session_c0ffee11", "session_ada00000"}},
		{"an unknown label", "quinn", "", false, []string{"session_b5975bff", "session_c0ffee00", "session_c0ffee11", "session_ada00000"}},
		{"nothing at all", "", "", false, []string{"session_b5975bff", "session_c0ffee00", "session_c0ffee11", "session_ada00000"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := store.ChooseSession(sessionsForNames, tc.typed)
			if tc.want != "" {
				if err != nil || got.ID != tc.want {
					t.Fatalf("ChooseSession(%q) = %s, %v; want %s", tc.typed, got.ID, err, tc.want)
				}
				return
			}
			var un *store.UnresolvedSession
			if !errors.As(err, &un) {
				t.Fatalf("ChooseSession(%q) = %s, %v; want a refusal", tc.typed, got.ID, err)
			}
			if un.Ambiguous != tc.ambiguous {
				t.Errorf("ambiguous = %v, want %v", un.Ambiguous, tc.ambiguous)
			}
			var shorts []string
			for _, c := range un.Candidates {
				shorts = append(shorts, c.ShortID)
				if !strings.Contains(err.Error(), c.String()) {
					t.Errorf("message %q does not list %s", err, c)
				}
			}
			if strings.Join(shorts, " ") != strings.Join(tc.candidates, " ") {
				t.Errorf("candidates %v, want %v", shorts, tc.candidates)
			}
			if !collaberr.HasCode(err, collaberr.SessionNotFound) {
				t.Errorf("refusal %v does not carry session_not_found", err)
			}
			if !strings.Contains(un.Hint(), "session_") {
				t.Errorf("hint %q names no short id", un.Hint())
			}
		})
	}
}

// TestShortSessionIDIsWhatViewsPrint: "session_" and eight hex digits; an
// id of another shape whole.
func TestShortSessionIDIsWhatViewsPrint(t *testing.T) {
	for in, want := range map[string]string{
		"session_b5975bff-1111-4111-8111-111111111111": "session_b5975bff",
		"session_b5975bff": "session_b5975bff",
		"legacy":           "legacy",
	} {
		if got := store.ShortSessionID(in); got != want {
			t.Errorf("ShortSessionID(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestChooseLiveSessionReadsLivenessAsTheCallerDoes: a session whose row
// says active but which the caller judges ended no longer answers to its
// label, and is listed apart from the live candidates; its id still names
// it.
func TestChooseLiveSessionReadsLivenessAsTheCallerDoes(t *testing.T) {
	gone := "session_b5975bff-1111-4111-8111-111111111111" // ben, active by its row
	live := func(s store.CoordinationSession) bool { return s.Status == store.SessionActive && s.ID != gone }
	_, err := store.ChooseLiveSession(sessionsForNames, "ben", live)
	var un *store.UnresolvedSession
	if !errors.As(err, &un) || un.Ambiguous || len(un.Candidates) != 5 || un.Candidates[0].ID != gone {
		t.Fatalf("ben whose host is gone: %v", err)
	}
	if got, err := store.ChooseLiveSession(sessionsForNames, "b5975bff", live); err != nil || got.ID != gone {
		t.Fatalf("an id still names a session judged ended: %s, %v", got.ID, err)
	}
}
