package field_test

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/field"
)

// TestIsIDAgreesWithThePattern holds the hand-written matcher to the
// pattern the tool schemas state, with the length bound added, on the
// edges (empty, shortest, longest, one too long) and on strings drawn
// from the allowed characters and their neighbours.
func TestIsIDAgreesWithThePattern(t *testing.T) {
	body := strings.TrimSuffix(strings.TrimPrefix(field.IDPattern, "^"), "*$")
	bounded := regexp.MustCompile("^" + body + "{0," + strconv.Itoa(field.MaxID-1) + "}$")
	unbounded := regexp.MustCompile(field.IDPattern)
	alphabet, allowed := "09azAZgG._:-/ \n\x00é", "09azAZ._:-"
	rng := rand.New(rand.NewPCG(3, 4))
	cases := []string{"", "a", "0", ".", "-a", "a\n", "Z:9"}
	for n := 0; n <= field.MaxID+1; n++ {
		cases = append(cases, strings.Repeat("a", n), strings.Repeat("Z", n), strings.Repeat("9", n)+"/")
		for i := range 30 {
			from := alphabet
			if i%2 == 0 {
				from = allowed
			}
			var b strings.Builder
			for range n {
				b.WriteByte(from[rng.IntN(len(from))])
			}
			cases = append(cases, b.String())
		}
	}
	for _, s := range cases {
		if got, want := field.IsID(s), bounded.MatchString(s); got != want {
			t.Errorf("IsID(%q) = %v, the pattern says %v", s, got, want)
		}
		if got, want := field.MatchesID(s), unbounded.MatchString(s); got != want {
			t.Errorf("MatchesID(%q) = %v, IDPattern says %v", s, got, want)
		}
		if got, want := field.MatchesSymbol(s), unbounded.MatchString(s) && s == strings.ToLower(s); got != want {
			t.Errorf("MatchesSymbol(%q) = %v, want %v", s, got, want)
		}
	}
}
