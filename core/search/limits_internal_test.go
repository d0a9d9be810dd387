package search

import (
	"strings"
	"testing"
	"unicode"
)

// FuzzMeasureBoundsTheQuotedWordsFallback checks the claim the limits
// rest on: what measure counts for a text bounds the quoted-words
// expressions the text falls back to when it is not valid FTS5, so a
// query within the limits as FTS5 is within them as words too.
func FuzzMeasureBoundsTheQuotedWordsFallback(f *testing.F) {
	for _, seed := range []string{`a* b*`, `"rel*" x`, `"docs rel* a*`, `NEAR(a b, 5)`, `x AND y OR z*`, `é* ü`, `"a"* "b"`, `***`, `a*b*c*`, `00!*`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s := measure(text)
		phrases, prefixes := 0, 0
		for _, tok := range strings.Fields(text) {
			bare := strings.TrimRight(tok, "*")
			if !strings.ContainsFunc(bare, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
				continue
			}
			phrases++
			if bare != tok {
				prefixes++
			}
		}
		if phrases > s.terms {
			t.Fatalf("%q: %d quoted words, %d terms measured", text, phrases, s.terms)
		}
		if prefixes > s.prefixes {
			t.Fatalf("%q: %d quoted prefixes, %d measured", text, prefixes, s.prefixes)
		}
	})
}
