package gitstate

import (
	"strings"
	"unicode/utf8"
)

// decodeText turns bytes into a string the way a JavaScript engine decodes
// UTF-8 (the WHATWG decoder): each maximal ill-formed subsequence becomes one
// U+FFFD. Valid input is returned unchanged.
func decodeText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + 8)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			sb.WriteRune(utf8.RuneError)
			i += illFormedPrefix(b[i:])
			continue
		}
		sb.Write(b[i : i+n])
		i += n
	}
	return sb.String()
}

// illFormedPrefix returns the length of the maximal subpart of an ill-formed
// sequence at the start of b: the longest prefix that could still begin a
// well-formed sequence, and at least one byte.
func illFormedPrefix(b []byte) int {
	lead := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case lead >= 0xC2 && lead <= 0xDF:
		need = 1
	case lead == 0xE0:
		need, lo = 2, 0xA0
	case lead == 0xED:
		need, hi = 2, 0x9F
	case lead >= 0xE1 && lead <= 0xEF:
		need = 2
	case lead == 0xF0:
		need, lo = 3, 0x90
	case lead == 0xF4:
		need, hi = 3, 0x8F
	case lead >= 0xF1 && lead <= 0xF3:
		need = 3
	default:
		return 1
	}
	n := 1
	for k := 0; k < need && n < len(b); k++ {
		c := b[n]
		if k > 0 {
			lo, hi = 0x80, 0xBF
		}
		if c < lo || c > hi {
			break
		}
		n++
	}
	return n
}
