package normalize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

const (
	capitalIWithDot = '\u0130' // İ
	capitalSigma    = '\u03A3' // Σ
	smallSigma      = '\u03C3' // σ
	finalSmallSigma = '\u03C2' // ς
)

// LowerJS lower-cases s as JavaScript's String.prototype.toLowerCase does
// without a locale: the simple lower-case mapping of every code point, plus
// the two rules of Unicode's SpecialCasing that apply without a language:
// U+0130 (İ) becomes "i" followed by U+0307, and Σ becomes ς where it ends a
// word (Final_Sigma, decided the way ICU-backed engines decide it, see
// isFinalSigma). Malformed bytes are copied unchanged.
//
// Go's unicode.ToLower and strings.ToLower differ from JavaScript exactly on
// those two rules, so they must not be used where the contract says
// "lower-case".
func LowerJS(s string) string {
	if lowerIsASCII(s) {
		return lowerASCII(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteByte(s[i])
		case r == capitalIWithDot:
			b.WriteString("i\u0307")
		case r == capitalSigma && isFinalSigma(s, i, i+size):
			b.WriteRune(finalSmallSigma)
		case r == capitalSigma:
			b.WriteRune(smallSigma)
		default:
			b.WriteRune(unicode.ToLower(r))
		}
		i += size
	}
	return b.String()
}

// lowerIsASCII reports whether s is pure ASCII, where every lower-casing
// rule agrees with ASCII lower-casing.
func lowerIsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// lowerASCII lower-cases an ASCII string, returning s itself when it has
// no upper-case letter.
func lowerASCII(s string) string {
	first := strings.IndexFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' })
	if first < 0 {
		return s
	}
	b := []byte(s)
	for i := first; i < len(b); i++ {
		if 'A' <= b[i] && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}
