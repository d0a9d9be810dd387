package canon

import "unicode/utf8"

// AppendString appends s as a JSON string literal, quotes included, exactly
// as JSON.stringify writes it: '"' and '\\' are backslash-escaped, control
// characters below U+0020 use \b \f \n \r \t or lowercase \u00xx, unpaired
// WTF-8 surrogates become lowercase \udxxx, and everything else (including
// '/', '<', '>', '&', U+007F, U+2028 and U+2029) is copied as UTF-8. A WTF-8
// high surrogate directly followed by a WTF-8 low surrogate is written as the
// single character they form. Bytes that are not valid WTF-8 are written as
// U+FFFD, one per byte; Append rejects such strings instead.
func AppendString(dst []byte, s string) []byte {
	dst, _ = appendString(dst, s, true)
	return dst
}

// appendString implements AppendString. Unless lenient is set it stops and
// reports false at the first byte that is not valid WTF-8.
func appendString(dst []byte, s string, lenient bool) ([]byte, bool) {
	dst = append(dst, '"')
	start := 0 // first byte not yet copied to dst
	for i := plainEndString(s, 0); i < len(s); i = plainEndString(s, i) {
		b := s[i]
		if b < 0x80 {
			dst = appendEscapedByte(append(dst, s[start:i]...), b)
			i++
			start = i
			continue
		}
		r, size := decodeRune(s, i, true)
		switch {
		case r == badRune:
			if !lenient {
				return dst, false
			}
			dst = append(append(dst, s[start:i]...), "\uFFFD"...)
		case isHighSurrogate(r):
			dst = append(dst, s[start:i]...)
			if lo, ok := lowSurrogateAt(s, i+3); ok {
				dst = utf8.AppendRune(dst, combineSurrogates(r, lo))
				size = 6
			} else {
				dst = appendUnitEscape(dst, r)
			}
		case isLowSurrogate(r):
			dst = appendUnitEscape(append(dst, s[start:i]...), r)
		default:
			i += size // an ordinary character: it stays in the pending run
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"'), true
}

// appendEscapedByte writes the escape for an ASCII byte that cannot appear
// raw in a JSON string: '"', '\\' or a control character.
func appendEscapedByte(dst []byte, b byte) []byte {
	switch {
	case b == '"' || b == '\\':
		return append(dst, '\\', b)
	case shortEscape(b) != 0:
		return append(dst, '\\', shortEscape(b))
	}
	return appendUnitEscape(dst, rune(b))
}
