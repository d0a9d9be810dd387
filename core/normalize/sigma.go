package normalize

import (
	"unicode"
	"unicode/utf8"
)

// isFinalSigma reports whether the capital sigma at s[start:end] is lowered
// to the final form ς: a cased letter comes before it and none comes after
// it, looking past case-ignorable code points in both directions.
//
// The look-around follows ICU (which V8 and JavaScriptCore use), not the
// letter of Unicode's Final_Sigma definition: a code point that is both
// cased and case-ignorable (U+02B0 ʰ, U+0345 ͅ) is always skipped, never
// taken as the cased letter. So "ʰΣ" lowers to "ʰσ" and "AΣʰ" to "aςʰ".
// The testdata tables were measured on Node to pin this down.
func isFinalSigma(s string, start, end int) bool {
	return casedBefore(s[:start]) && !casedAfter(s[end:])
}

// casedBefore reports whether the last code point of s that is not
// case-ignorable is cased.
func casedBefore(s string) bool {
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if !isCaseIgnorable(r) {
			return isCased(r)
		}
		s = s[:len(s)-size]
	}
	return false
}

// casedAfter reports whether the first code point of s that is not
// case-ignorable is cased.
func casedAfter(s string) bool {
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		if !isCaseIgnorable(r) {
			return isCased(r)
		}
		s = s[size:]
	}
	return false
}

// isCased reports Unicode's Cased property: upper-case, lower-case or
// title-case letters and the Other_Lowercase/Other_Uppercase code points.
func isCased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// isCaseIgnorable reports Unicode's Case_Ignorable property: the categories
// Mn, Me, Cf, Lm and Sk, plus the Word_Break classes MidLetter, MidNumLet
// and Single_Quote, which the standard library has no table for.
func isCaseIgnorable(r rune) bool {
	return isWordBreakMid(r) || unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// isWordBreakMid reports the Word_Break values MidLetter, MidNumLet and
// Single_Quote (Unicode 15 to 17 agree on this list).
func isWordBreakMid(r rune) bool {
	switch r {
	case '\'', '.', ':', 0x00B7, 0x0387, 0x055F, 0x05F4, 0x2018, 0x2019, 0x2024, 0x2027,
		0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return false
}
