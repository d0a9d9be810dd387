package store_test

import (
	"testing"

	"github.com/agenttool/collab/core/store"
)

// relationStep posts one report: who ("a" or "b") relates to the report
// posted at step target (-1 for the completion report) with relation.
type relationStep struct {
	who      string
	relation string
	target   int
}

// TestCompletionObsoleteFollowsWithdrawalChains proves the obsoleted set of
// docs/contract.md#challenges-and-withdrawals: an active
// withdraws/corrects/supersedes makes the completion obsolete, withdrawing
// that relation restores it, and withdrawing the withdrawal makes it obsolete
// again (the newest relation wins).
func TestCompletionObsoleteFollowsWithdrawalChains(t *testing.T) {
	cases := []struct {
		name  string
		steps []relationStep
		want  bool
	}{
		{"untouched", nil, false},
		{"supported only", []relationStep{{"b", "supports", -1}}, false},
		{"challenged only", []relationStep{{"b", "challenges", -1}}, false},
		{"corrected", []relationStep{{"a", "corrects", -1}}, true},
		{"withdrawn", []relationStep{{"a", "withdraws", -1}}, true},
		{"superseded", []relationStep{{"a", "supersedes", -1}}, true},
		{"correction withdrawn", []relationStep{{"a", "corrects", -1}, {"a", "withdraws", 0}}, false},
		{"withdrawal of the withdrawal", []relationStep{{"a", "corrects", -1}, {"a", "withdraws", 0}, {"a", "withdraws", 1}}, true},
		{"four-deep chain", []relationStep{{"a", "supersedes", -1}, {"a", "withdraws", 0}, {"a", "withdraws", 1},
			{"a", "withdraws", 2}}, false},
		{"one of two corrections withdrawn", []relationStep{{"a", "corrects", -1}, {"a", "corrects", -1}, {"a", "withdraws", 0}}, true},
		{"correction corrected", []relationStep{{"a", "corrects", -1}, {"a", "corrects", 0}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, completion := relationWorld(t, c.steps)
			var got bool
			err := f.s.Engine().Read(f.ctx, func(tx store.Tx) error {
				var err error
				got, err = store.CompletionObsolete(f.ctx, tx, f.a.Workspace.ID, completion)
				return err
			})
			if err != nil || got != c.want {
				t.Fatalf("completionObsolete = %v, %v; want %v", got, err, c.want)
			}
		})
	}
}

// TestUnresolvedChallengeNeedsAnActiveResolution proves
// docs/contract.md#challenges-and-withdrawals: a challenge
// blocks until it is withdrawn or resolved by an active report; a
// withdrawn resolution no longer clears it; a fresh one does.
func TestUnresolvedChallengeNeedsAnActiveResolution(t *testing.T) {
	cases := []struct {
		name  string
		steps []relationStep
		want  bool
	}{
		{"no challenge", []relationStep{{"b", "supports", -1}}, false},
		{"open challenge", []relationStep{{"b", "challenges", -1}}, true},
		{"resolved by the challenger", []relationStep{{"b", "challenges", -1}, {"b", "resolves", 0}}, false},
		{"resolved by the author", []relationStep{{"b", "challenges", -1}, {"a", "resolves", 0}}, false},
		{"challenge withdrawn", []relationStep{{"b", "challenges", -1}, {"b", "withdraws", 0}}, false},
		{"resolution withdrawn", []relationStep{{"b", "challenges", -1}, {"a", "resolves", 0}, {"a", "withdraws", 1}}, true},
		{"fresh resolution after withdrawal", []relationStep{{"b", "challenges", -1}, {"a", "resolves", 0},
			{"a", "withdraws", 1}, {"b", "resolves", 0}}, false},
		{"resolution superseded", []relationStep{{"b", "challenges", -1}, {"a", "resolves", 0}, {"a", "supersedes", 1}}, true},
		{"challenge withdrawal withdrawn", []relationStep{{"b", "challenges", -1}, {"b", "withdraws", 0}, {"b", "withdraws", 1}}, true},
		{"corrected challenge still blocks", []relationStep{{"b", "challenges", -1}, {"b", "corrects", 0}}, true},
		{"second challenge open", []relationStep{{"b", "challenges", -1}, {"a", "challenges", -1}, {"a", "resolves", 0}}, true},
		{"challenge of a support is elsewhere", []relationStep{{"b", "supports", -1}, {"a", "challenges", 0}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, completion := relationWorld(t, c.steps)
			var got bool
			err := f.s.Engine().Read(f.ctx, func(tx store.Tx) error {
				var err error
				got, err = store.UnresolvedChallenge(f.ctx, tx, f.a.Workspace.ID, completion)
				return err
			})
			if err != nil || got != c.want {
				t.Fatalf("unresolvedChallenge = %v, %v; want %v", got, err, c.want)
			}
		})
	}
}

// relationWorld posts a completion-like report by a on a task, then the
// steps, and returns the completion report's id.
func relationWorld(t *testing.T, steps []relationStep) (*reportFixture, string) {
	f := newReportFixture(t)
	f.task(f.a, "task-1")
	completion := f.post(f.a, store.AppendReportInput{TaskID: ptr("task-1"), Kind: "observation", Body: "done"})
	var posted []string
	for _, st := range steps {
		target := completion.ID
		if st.target >= 0 {
			target = posted[st.target]
		}
		as := f.a
		if st.who == "b" {
			as = f.b
		}
		r := f.post(as, store.AppendReportInput{TaskID: ptr("task-1"), Kind: "inference", Body: st.relation,
			Relation: ptr(st.relation), TargetReportID: &target})
		posted = append(posted, r.ID)
	}
	return f, completion.ID
}
