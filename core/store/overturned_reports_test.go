package store_test

import (
	"maps"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// Overturned lists what is out of force and by which relation, and a
// withdrawn withdrawal puts its target back in force.
func TestOverturnedFollowsTheRelationsInForce(t *testing.T) {
	f := newReportFixture(t)
	rel := func(s string) *string { return &s }
	base := f.post(f.a, store.AppendReportInput{Kind: "observation", Body: "the build is red"})
	fixed := f.post(f.a, store.AppendReportInput{Kind: "observation", Body: "the build is green",
		Relation: rel("corrects"), TargetReportID: &base.ID})
	other := f.post(f.b, store.AppendReportInput{Kind: "proposal", Body: "pin the toolchain"})
	f.post(f.b, store.AppendReportInput{Kind: "proposal", Body: "pin it to 1.26",
		Relation: rel("supersedes"), TargetReportID: &other.ID})
	check := func(step string, want map[string]string) {
		t.Helper()
		got, err := f.s.Overturned(f.ctx, f.a.Workspace.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			t.Fatalf("%s: overturned %v, want %v", step, got, want)
		}
	}
	check("a correction and a supersession", map[string]string{base.ID: "corrects", other.ID: "supersedes"})
	undo := f.post(f.a, store.AppendReportInput{Kind: "observation", Body: "the fix was wrong",
		Relation: rel("withdraws"), TargetReportID: &fixed.ID})
	check("the correction withdrawn", map[string]string{fixed.ID: "withdraws", other.ID: "supersedes"})
	f.post(f.a, store.AppendReportInput{Kind: "observation", Body: "it was right after all",
		Relation: rel("withdraws"), TargetReportID: &undo.ID})
	check("the withdrawal withdrawn", map[string]string{base.ID: "corrects", undo.ID: "withdraws", other.ID: "supersedes"})
}
