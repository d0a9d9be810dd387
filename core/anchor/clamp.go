package anchor

import (
	"strings"
	"unicode/utf8"
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
// keeps the first limit units and appends "…", as the reference's
// String.prototype.slice does. s is WTF-8 (see core/canon): an unpaired
// surrogate counts one unit and is kept. When the cut falls inside a
// surrogate pair, the kept half is the lone high surrogate, written as
// WTF-8, so that it renders as the same \udxxx escape the reference's
// JSON.stringify writes.
func clamp(s string, limit int) string {
	var b strings.Builder
	units := 0
	for i := 0; i < len(s); {
		r, size := decodeWTF8(s, i)
		if r < 0x20 || r == 0x7f {
			r = ' '
		}
		n := 1
		if r >= 0x10000 {
			n = 2
		}
		if units+n > limit {
			if units < limit { // the cut splits a pair: keep its high half
				appendSurrogate(&b, 0xD800+(r-0x10000)>>10)
			}
			b.WriteString(ellipsis)
			return b.String()
		}
		units += n
		if r == ' ' || size == 1 {
			b.WriteRune(r)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// decodeWTF8 decodes the character or lone surrogate at s[i]. Any other
// ill-formed byte (which ledger strings never hold) reads as U+FFFD.
func decodeWTF8(s string, i int) (rune, int) {
	if i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80 {
		return rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F) | 0xD000, 3
	}
	return utf8.DecodeRuneInString(s[i:])
}

// appendSurrogate writes the surrogate code point u in its three-byte
// WTF-8 form (utf8.EncodeRune refuses surrogates).
func appendSurrogate(b *strings.Builder, u rune) {
	b.WriteByte(byte(0xE0 | u>>12))
	b.WriteByte(byte(0x80 | (u>>6)&0x3F))
	b.WriteByte(byte(0x80 | u&0x3F))
}
