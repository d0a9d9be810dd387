package wake

import (
	"testing"
	"time"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

func TestFollowerGivesEachNoticeOnceAndMovesOnlyItsOwnPosition(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	soon := store.FormatTime(now.Add(time.Minute))
	offer := func(seq int64, task string) journal.Event {
		return ev(seq, "handoff.offered", "h_"+task, "alice", ptr("sess_a"),
			`{"handoff":{"task_id":"`+task+`","to_session_id":"sess_me","to_actor":"bob","summary":"take it"}}`)
	}
	f := NewFollower(4)
	snap := store.WakeSnapshot{SessionID: "sess_me", Actor: "bob", Head: journal.Anchor{Sequence: 6}, After: 4,
		Candidates: []journal.Event{offer(5, "t1")},
		Tasks:      []store.WakeTask{{ID: "held", Status: "claimed", LeaseExpiresAt: &soon}}}
	got := f.Take(snap, now)
	if len(got) != 2 || got[0].Sequence != 5 || got[1].Kind != LeaseExpiring || f.After() != 6 {
		t.Fatalf("first take: %+v after %d", got, f.After())
	}
	// The next snapshot is read after 6: the lease is still near expiry
	// but was already given; the new offer is given.
	snap.After, snap.Head.Sequence, snap.Candidates = 6, 8, []journal.Event{offer(8, "t2")}
	got = f.Take(snap, now)
	if len(got) != 1 || got[0].Sequence != 8 || f.After() != 8 {
		t.Fatalf("second take: %+v after %d", got, f.After())
	}
	// A renewed lease nearing its new expiry is news again.
	later := store.FormatTime(now.Add(2 * time.Minute))
	snap.After, snap.Candidates, snap.Tasks[0].LeaseExpiresAt = 8, nil, &later
	if got = f.Take(snap, now); len(got) != 1 || got[0].Kind != LeaseExpiring {
		t.Fatalf("renewed lease: %+v", got)
	}
	if got = f.Take(snap, now); len(got) != 0 {
		t.Fatalf("nothing new gave %+v", got)
	}
}

func TestFollowerResumesFromTheLastInspectedCandidateWhenTruncated(t *testing.T) {
	var cands []journal.Event
	for i := int64(1); i <= CandidateLimit; i++ {
		cands = append(cands, ev(i, "report.posted", "r", "alice", ptr("sess_a"), `{"to_session_id":"sess_me","kind":"observation","body":"b"}`))
	}
	f := NewFollower(0)
	got := f.Take(store.WakeSnapshot{SessionID: "sess_me", Head: journal.Anchor{Sequence: 2 * CandidateLimit}, Candidates: cands}, time.Now())
	if len(got) != CandidateLimit || f.After() != CandidateLimit {
		t.Fatalf("took %d, after %d; want %d and %d", len(got), f.After(), CandidateLimit, CandidateLimit)
	}
}
