package canon

import (
	"encoding/binary"
	"math/bits"
)

// text is either form in which this package reads characters: JSON input as
// []byte or Go strings.
type text interface{ ~string | ~[]byte }

const (
	lows  = 0x0101010101010101
	highs = 0x8080808080808080
)

// specialBytes flags, in bit 7 of each byte, the bytes of the little-endian
// word x that need a closer look inside a JSON string: '"', '\\', a control
// byte below 0x20, or any byte >= 0x80. Bytes below 0x20 or equal to '"' or
// '\\' make the matching subtraction borrow into bit 7, and bytes >= 0x80 are
// caught by "| x". A borrow can also flag bytes above a genuine hit, never
// below one, so the lowest flagged byte is exact.
func specialBytes(x uint64) uint64 {
	return (((x-lows*0x20)|((x^(lows*'"'))-lows)|((x^(lows*'\\'))-lows))&^x | x) & highs
}

// plainEnd returns the index of the first byte at or after i that is not
// plain JSON string content (see specialBytes), or len(d) if there is none.
// It tests sixteen bytes per step while it can.
func plainEnd(d []byte, i int) int {
	for ; i+16 <= len(d); i += 16 {
		a := specialBytes(binary.LittleEndian.Uint64(d[i:]))
		b := specialBytes(binary.LittleEndian.Uint64(d[i+8:]))
		if a|b != 0 {
			if a != 0 {
				return i + bits.TrailingZeros64(a)>>3
			}
			return i + 8 + bits.TrailingZeros64(b)>>3
		}
	}
	for ; i+8 <= len(d); i += 8 {
		if m := specialBytes(binary.LittleEndian.Uint64(d[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(d); i++ {
		if !plainByte(d[i]) {
			return i
		}
	}
	return len(d)
}

// plainEndString is plainEnd for a Go string.
func plainEndString(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		if m := specialBytes(x); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(s); i++ {
		if !plainByte(s[i]) {
			return i
		}
	}
	return len(s)
}

// plainByte reports whether b stands for itself in a canonical JSON string.
func plainByte(b byte) bool {
	return b >= 0x20 && b < 0x80 && b != '"' && b != '\\'
}

// badRune is what decodeRune returns for a byte that does not start a valid
// sequence; the caller advances one byte.
const badRune = -1

// decodeRune decodes the UTF-8 sequence starting at s[i] (which must be
// >= 0x80). With wtf8 set, three-byte encodings of surrogate code points are
// accepted and returned as the surrogate value. It returns badRune and size 1
// for anything else that is not well-formed UTF-8.
func decodeRune[T text](s T, i int, wtf8 bool) (r rune, size int) {
	b0 := s[i]
	n := len(s) - i
	switch {
	case b0 >= 0xC2 && b0 <= 0xDF:
		if n >= 2 && isCont(s[i+1]) {
			return rune(b0&0x1F)<<6 | rune(s[i+1]&0x3F), 2
		}
	case b0 >= 0xE0 && b0 <= 0xEF:
		if n >= 3 && isCont(s[i+1]) && isCont(s[i+2]) {
			r = rune(b0&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			if r >= 0x800 && (wtf8 || r < 0xD800 || r > 0xDFFF) {
				return r, 3
			}
		}
	case b0 >= 0xF0 && b0 <= 0xF4:
		if n >= 4 && isCont(s[i+1]) && isCont(s[i+2]) && isCont(s[i+3]) {
			r = rune(b0&0x07)<<18 | rune(s[i+1]&0x3F)<<12 | rune(s[i+2]&0x3F)<<6 | rune(s[i+3]&0x3F)
			if r >= 0x10000 && r <= 0x10FFFF {
				return r, 4
			}
		}
	}
	return badRune, 1
}

func isCont(b byte) bool { return b&0xC0 == 0x80 }

func isHighSurrogate(r rune) bool { return r >= 0xD800 && r <= 0xDBFF }
func isLowSurrogate(r rune) bool  { return r >= 0xDC00 && r <= 0xDFFF }

// lowSurrogateAt reports whether s[i:] starts with the WTF-8 form of a low
// surrogate and returns it.
func lowSurrogateAt[T text](s T, i int) (rune, bool) {
	if i+3 <= len(s) && s[i] == 0xED && s[i+1] >= 0xB0 && s[i+1] <= 0xBF && isCont(s[i+2]) {
		return 0xDC00 | rune(s[i+1]&0x0F)<<6 | rune(s[i+2]&0x3F), true
	}
	return 0, false
}

// combineSurrogates returns the code point of a valid high/low pair.
func combineSurrogates(hi, lo rune) rune {
	return 0x10000 + (hi-0xD800)<<10 + (lo - 0xDC00)
}
