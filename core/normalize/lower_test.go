package normalize_test

import (
	"testing"

	"github.com/agenttool/collab/core/normalize"
)

// TestLowerJSFollowsSpecialCasingWithoutLocale walks the SpecialCasing.txt
// rules that can touch lower-casing: the one unconditional full mapping
// (U+0130), the Final_Sigma condition, entries whose lower-case form is the
// simple one, and the language-specific rules (lt, tr, az) that a
// locale-free toLowerCase must not apply.
func TestLowerJSFollowsSpecialCasingWithoutLocale(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"U+0130 maps to i + U+0307", "\u0130", "i\u0307"},
		{"final sigma after a letter", "\u0391\u03a3", "\u03b1\u03c2"},
		{"lone sigma is not final", "\u03a3", "\u03c3"},
		{"sigma before a letter is not final", "\u03a3\u0391", "\u03c3\u03b1"},
		{"final sigma at a word end inside a sentence", "\u039f\u0394\u039f\u03a3 X", "\u03bf\u03b4\u03bf\u03c2 x"},
		{"case-ignorable marks are skipped", "A'\u03a3'", "a'\u03c2'"},
		{"ICU skips cased-and-ignorable U+02B0 before sigma", "\u02b0\u03a3", "\u02b0\u03c3"},
		{"ICU skips cased-and-ignorable U+02B0 after sigma", "A\u03a3\u02b0", "a\u03c2\u02b0"},
		{"title-case digraph lowers simply", "\u01c5", "\u01c6"},
		{"Greek with prosgegrammeni lowers simply", "\u1f88", "\u1f80"},
		{"ligature has no lower-case change", "\ufb00", "\ufb00"},
		{"sharp s stays", "\u00df", "\u00df"},
		{"capital sharp s lowers to sharp s", "\u1e9e", "\u00df"},
		{"Kelvin sign lowers to ASCII k", "\u212a", "k"},
		{"no Turkish dotless i", "I", "i"},
		{"no Lithuanian dot above", "\u00cc", "\u00ec"},
		{"supplementary letters", "\U00010400", "\U00010428"},
		{"ASCII", "Src/App.TS", "src/app.ts"},
		{"malformed bytes are kept", "A\xffB", "a\xffb"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := normalize.LowerJS(c.in); got != c.want {
				t.Errorf("LowerJS(%+q) = %+q, want %+q", c.in, got, c.want)
			}
		})
	}
}
