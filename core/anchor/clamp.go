package anchor

import (
	"strings"
	"unicode/utf16"
)

// Clamp limits, in UTF-16 code units, for strings copied into a Ref.
const (
	maxHashUnits    = 128
	maxNetworkUnits = 64
	maxStatusUnits  = 32
	maxTimeUnits    = 64
)

// ellipsis marks a clamped string.
const ellipsis = "…"

// clamp replaces each C0 control character and DEL with a space and, when
// the result is longer than limit UTF-16 code units (JavaScript's length),
// keeps the first limit units and appends "…". When the cut would split a
// surrogate pair, the kept high surrogate — which Go strings cannot hold —
// is written as U+FFFD, so the kept prefix still measures exactly limit.
func clamp(s string, limit int) string {
	var b strings.Builder
	units := 0
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			r = ' '
		}
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1
		}
		if units+n > limit {
			return finishClamped(&b, units < limit)
		}
		units += n
		b.WriteRune(r)
	}
	return b.String()
}

func finishClamped(b *strings.Builder, splitPair bool) string {
	if splitPair {
		b.WriteRune('\uFFFD')
	}
	b.WriteString(ellipsis)
	return b.String()
}
