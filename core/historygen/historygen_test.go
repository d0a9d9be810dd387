package historygen_test

import (
	"context"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/historygen"
)

// TestGeneratedJournalVerifiesAndHoldsTheMix proves a small generated
// journal is a sound one: its chain verifies, it reaches the length asked
// for, and it holds every kind of event of the mix.
func TestGeneratedJournalVerifiesAndHoldsTheMix(t *testing.T) {
	ctx := context.Background()
	f, err := historygen.Cached(ctx, t.TempDir(), 1500)
	if err != nil {
		t.Fatal(err)
	}
	if f.Events < 1500 {
		t.Fatalf("journal holds %d events, want at least 1500", f.Events)
	}
	st, err := backend.Open(ctx, backend.Options{Path: f.DB})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ok, err := st.VerifyFull(ctx, f.WorkspaceID)
	if err != nil || !ok {
		t.Fatalf("verify: ok=%v err=%v", ok, err)
	}
	types, err := st.EventTypes(ctx, f.WorkspaceID, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, ty := range types {
		seen[ty] = true
	}
	for _, want := range []string{"session.joined", "session.ended", "task.created", "task.claimed", "task.progressed",
		"task.reported_complete", "task.accepted", "report.posted", "handoff.offered", "handoff.accepted", "independence.claimed",
		"independence.released"} {
		if !seen[want] {
			t.Errorf("no %s event in %v", want, types)
		}
	}
}
