package httpserve

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestValidInstanceAgreesWithItsPattern checks the hand-written matcher against
// the expression it replaces, on the edges (empty, shortest, longest, one
// too long) and on strings drawn from the allowed characters and their
// neighbours.
func TestValidInstanceAgreesWithItsPattern(t *testing.T) {
	pattern := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$`)
	alphabet, allowed := "09afAFgzGZ._:-/ \n\x00é", "09afAF._:-"
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []string{"", "a", "0", ".", "-a", "a\n"}
	for n := 0; n <= 201; n++ {
		cases = append(cases, strings.Repeat("a", n), strings.Repeat("F", n), strings.Repeat("0", n)+"g")
		for i := range 40 {
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
		if got, want := validInstance(s), pattern.MatchString(s); got != want {
			t.Errorf("validInstance(%q) = %v, the pattern says %v", s, got, want)
		}
	}
}
