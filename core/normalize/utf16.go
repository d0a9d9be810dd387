package normalize

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Length returns the length of s in UTF-16 code units, the measure behind
// every length limit of the contract: a code point above U+FFFF counts 2,
// every other code point (and every malformed byte) counts 1.
func Length(s string) int {
	n := 0
	for _, r := range s {
		if r > 0xFFFF {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// CompareUTF16 orders a and b as JavaScript's default sort does: by their
// UTF-16 code units. It differs from byte (code point) order only where a
// code point in U+E000..U+FFFF meets one above U+FFFF: UTF-16 puts the latter
// first because its lead surrogate is smaller. It returns -1, 0 or +1.
func CompareUTF16(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) || i == len(b) {
		return cmp.Compare(len(a), len(b))
	}
	// Step back to the start of the code point that differs; the bytes
	// before i are shared, so a and b agree on where it starts.
	for i > 0 && (!utf8.RuneStart(a[i]) || !utf8.RuneStart(b[i])) {
		i--
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	if c := cmp.Compare(utf16Rank(ra), utf16Rank(rb)); c != 0 {
		return c
	}
	// Only malformed input reaches here (different bytes decoded to the
	// same replacement rune); fall back to bytes so that the result stays
	// antisymmetric and zero only for equal strings.
	return strings.Compare(a[i:], b[i:])
}

// utf16Rank maps a code point to a number whose order equals the order of
// the code point's UTF-16 encoding: supplementary code points move down to
// where their lead surrogates sort, and U+E000..U+FFFF move above them all.
func utf16Rank(r rune) rune {
	switch {
	case r > 0xFFFF:
		return r - 0x10000 + 0xD800
	case r >= 0xD800:
		return r + 0x100000
	}
	return r
}

// SortUnique returns a new slice holding the distinct strings of s sorted by
// UTF-16 code units; s itself is not modified. The result is never nil, so
// that an empty list encodes as [] in JSON.
func SortUnique(s []string) []string {
	out := make([]string, len(s))
	copy(out, s)
	slices.SortFunc(out, CompareUTF16)
	return slices.Compact(out)
}
