package wake

import (
	"testing"
	"time"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

func ptr(s string) *string { return &s }

func ev(seq int64, typ, entity, actor string, session *string, payload string) journal.Event {
	return journal.Event{Sequence: seq, Type: typ, EntityID: entity, Actor: actor, SessionID: session, PayloadJSON: []byte(payload)}
}

func TestRelevanceRulesNameOnlyWhatConcernsTheViewer(t *testing.T) {
	me, other := ptr("sess_me"), ptr("sess_other")
	snap := store.WakeSnapshot{SessionID: "sess_me", Actor: "bob", Head: journal.Anchor{Sequence: 20}, After: 5,
		Tasks:     []store.WakeTask{{ID: "mine", Status: "claimed"}},
		OwnOffers: []string{"handoff_mine"},
		Candidates: []journal.Event{
			ev(6, "handoff.offered", "h1", "alice", other, `{"handoff":{"task_id":"t1","to_session_id":"sess_me","to_actor":"bob","summary":"take it"}}`),
			ev(7, "handoff.offered", "h2", "alice", other, `{"handoff":{"task_id":"t2","to_session_id":"sess_carol","to_actor":"carol","summary":"x"}}`),
			ev(8, "report.posted", "report_1", "alice", other, `{"to_session_id":"sess_me","kind":"observation","body":"tests fail"}`),
			ev(9, "report.posted", "report_2", "alice", other, `{"to_session_id":null,"kind":"observation","body":"broadcast"}`),
			ev(10, "report.posted", "report_rev", "alice", other, `{"to_session_id":"sess_me","kind":"inference","body":"fix it"}`),
			ev(11, "task.changes_requested", "mine", "alice", other, `{"review_report_id":"report_rev","summary":"fix it"}`),
			ev(12, "task.accepted", "theirs", "alice", other, `{"review_report_id":"report_x"}`),
			ev(13, "handoff.declined", "handoff_mine", "carol", other, `{"task_id":"t3"}`),
			ev(14, "handoff.accepted", "handoff_other", "carol", other, `{"task_id":"t4"}`),
			ev(15, "task.recovered", "t5", "alice", other, `{"prior_lease":{"session_id":"sess_me"}}`),
			ev(16, "task.recovered", "t6", "alice", other, `{"prior_lease":{"session_id":"sess_carol"}}`),
			ev(17, "handoff.offered", "h3", "bob", me, `{"handoff":{"task_id":"t7","to_session_id":"sess_me","to_actor":"bob"}}`),
			ev(18, "report.posted", "report_3", "alice", other, `not json`),
		},
	}
	sum := Summarise(snap, time.Now())
	want := []struct {
		seq  int64
		kind Kind
	}{{6, HandoffOffered}, {8, ReportAddressed}, {11, ChangesRequested}, {13, HandoffAnswered}, {15, ClaimLost}}
	if len(sum.Notices) != len(want) {
		t.Fatalf("notices %+v, want %d", sum.Notices, len(want))
	}
	for i, w := range want {
		if sum.Notices[i].Sequence != w.seq || sum.Notices[i].Kind != w.kind {
			t.Errorf("notice %d = %+v, want #%d %s", i, sum.Notices[i], w.seq, w.kind)
		}
	}
	if sum.Unread != 15 || !sum.New() {
		t.Fatalf("unread %d new %v", sum.Unread, sum.New())
	}
	line := sum.Line()
	if line != "collab: 15 unread coordination events, 1 handoff offered to you, 1 review requesting changes, 1 report addressed to you, 1 answer to your handoffs, 1 claim of yours ended — call collab_next" {
		t.Fatalf("line %q", line)
	}
}

func TestLegacyActorsMatchOffersByLabel(t *testing.T) {
	snap := store.WakeSnapshot{Actor: "bob", Head: journal.Anchor{Sequence: 3}, After: 0, Candidates: []journal.Event{
		ev(1, "handoff.offered", "h1", "alice", nil, `{"offer":{"task_id":"t1","to_actor":"bob","to_session_id":null}}`),
		ev(2, "handoff.offered", "h2", "alice", nil, `{"offer":{"task_id":"t2","to_actor":"carol","to_session_id":null}}`),
		ev(3, "report.posted", "r", "alice", nil, `{"to_session_id":"sess_x"}`),
	}}
	sum := Summarise(snap, time.Now())
	if len(sum.Notices) != 1 || sum.Notices[0].TaskID != "t1" {
		t.Fatalf("notices %+v", sum.Notices)
	}
}

func TestLeasesNearExpiryAndOldOffersAreStates(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	soon, later := store.FormatTime(now.Add(2*time.Minute)), store.FormatTime(now.Add(time.Hour))
	snap := store.WakeSnapshot{SessionID: "s", Actor: "bob", Head: journal.Anchor{Sequence: 9000}, After: 0, Windowed: true,
		Tasks: []store.WakeTask{{ID: "a", Status: "claimed", LeaseExpiresAt: &soon}, {ID: "b", Status: "claimed", LeaseExpiresAt: &later}},
		PendingOffers: []store.WakeOffer{{ID: "h_old", TaskID: "t", FromActor: "alice", ExpiresAt: later},
			{ID: "h_gone", TaskID: "u", FromActor: "alice", ExpiresAt: store.FormatTime(now.Add(-time.Minute))}}}
	sum := Summarise(snap, now)
	if len(sum.Notices) != 2 || sum.Counts[LeaseExpiring] != 1 || sum.Counts[HandoffOffered] != 1 || !sum.Windowed {
		t.Fatalf("summary %+v", sum)
	}
	snap.Windowed = false
	if sum := Summarise(snap, now); sum.Counts[HandoffOffered] != 0 {
		t.Fatalf("an offer before an unwindowed cursor was already read: %+v", sum)
	}
	if sum := Summarise(store.WakeSnapshot{Head: journal.Anchor{Sequence: 4}, After: 4}, now); sum.New() || sum.Line() != "" {
		t.Fatalf("nothing new should be silent: %+v", sum)
	}
}
