package store

import (
	"slices"
	"testing"
)

// TestNewestFirstOrdersBySequenceThenIDDescending checks the order the
// obsoleting walk takes: the newest event sequence first, and within one
// sequence the greater id (in byte order) first.
func TestNewestFirstOrdersBySequenceThenIDDescending(t *testing.T) {
	cases := []struct {
		name string
		in   []Report
		want []string
	}{
		{"by sequence", []Report{{ID: "a", EventSequence: 1}, {ID: "b", EventSequence: 3}, {ID: "c", EventSequence: 2}},
			[]string{"b", "c", "a"}},
		{"ties by id, descending", []Report{{ID: "ss_a", EventSequence: 6}, {ID: "ss_b", EventSequence: 6},
			{ID: "co", EventSequence: 5}}, []string{"ss_b", "ss_a", "co"}},
		{"ids in byte order", []Report{{ID: "Z", EventSequence: 1}, {ID: "a", EventSequence: 1}, {ID: "é", EventSequence: 1}},
			[]string{"é", "a", "Z"}},
		{"nothing", []Report{}, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			newestFirst(c.in)
			got := []string{}
			for _, r := range c.in {
				got = append(got, r.ID)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("newestFirst = %v, want %v", got, c.want)
			}
		})
	}
}

// TestObsoletingRelationsAreTheThreeThatWithdraw checks that the relation
// set the obsoleting walk reads and the one the author rule names agree.
func TestObsoletingRelationsAreTheThreeThatWithdraw(t *testing.T) {
	for _, r := range []string{"informs", "supports", "challenges", "corrects", "withdraws", "supersedes", "resolves"} {
		want := r == "corrects" || r == "withdraws" || r == "supersedes"
		if obsoletes(r) != want || slices.Contains(obsoletingRelations(), r) != want {
			t.Errorf("relation %s: obsoletes = %v, want %v", r, obsoletes(r), want)
		}
	}
}
