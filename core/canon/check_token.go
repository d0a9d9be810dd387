package canon

import "strconv"

// keyToken locates the body of a string literal (between its quotes) inside
// the text being checked. plain means the body contains no escapes.
type keyToken struct {
	start, end int
	plain      bool
}

// str checks the string literal at c.pos (its opening quote): escapes must
// be exactly the ones JSON.stringify writes and every other byte must be
// valid UTF-8 that needs no escape.
func (c *checker) str() (keyToken, bool) {
	d := c.data
	tok := keyToken{start: c.pos + 1, plain: true}
	for i := plainEnd(d, tok.start); i < len(d); i = plainEnd(d, i) {
		switch b := d[i]; {
		case b == '"':
			tok.end = i
			c.pos = i + 1
			return tok, true
		case b == '\\':
			n := canonicalEscapeLen(d, i)
			if n == 0 {
				return tok, false
			}
			i += n
			tok.plain = false
		case b < 0x20:
			return tok, false
		default:
			r, size := decodeRune(d, i, false)
			if r == badRune {
				return tok, false
			}
			i += size
		}
	}
	return tok, false
}

// canonicalEscapeLen returns the length of the escape sequence at d[i] (a
// backslash) if JSON.stringify would write that escape, or 0 if it would
// not: it uses \" \\ \b \f \n \r \t, lowercase \u00xx for the remaining
// control characters, and lowercase \udxxx only for surrogates that do not
// form a pair.
func canonicalEscapeLen(d []byte, i int) int {
	if i+1 >= len(d) {
		return 0
	}
	switch d[i+1] {
	case '"', '\\', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
	default:
		return 0
	}
	u := lowerHex4(d, i+2)
	switch {
	case u < 0:
		return 0
	case u < 0x20 && shortEscape(byte(u)) == 0:
		return 6
	case isLowSurrogate(u):
		return 6 // a high surrogate escape before it would have been refused
	case isHighSurrogate(u):
		if i+7 < len(d) && d[i+6] == '\\' && d[i+7] == 'u' && isLowSurrogate(hex4(d, i+8)) {
			return 0 // a valid pair is written as the character itself
		}
		return 6
	}
	return 0
}

// lowerHex4 is hex4 restricted to the lowercase digits JSON.stringify uses.
func lowerHex4(d []byte, i int) rune {
	if i+4 > len(d) {
		return -1
	}
	for _, b := range d[i : i+4] {
		if b >= 'A' && b <= 'F' {
			return -1
		}
	}
	return hex4(d, i)
}

// number checks the number token at c.pos: it must be exactly what
// AppendNumber writes for the value it denotes.
func (c *checker) number() bool {
	start := c.pos
	end, ok := scanNumber(c.data, start)
	if !ok {
		return false
	}
	c.pos = end
	tok := c.data[start:end]
	if short, zero := shortInteger(tok); short {
		// Integers of up to 15 digits are exact; the grammar already forbids
		// leading zeros, so only "-0" is not canonical.
		return !zero || tok[0] != '-'
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	if err != nil {
		return false // out of range: it would be written as null
	}
	var buf [32]byte
	return string(AppendNumber(buf[:0], f)) == string(tok)
}

// shortInteger reports whether tok is an optionally negative run of at most
// 15 digits, and whether that run is "0".
func shortInteger(tok []byte) (short, zero bool) {
	digits := tok
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) > 15 {
		return false, false
	}
	for _, b := range digits {
		if !isDigit(b) {
			return false, false
		}
	}
	return true, len(digits) == 1 && digits[0] == '0'
}

// keyBefore reports whether key a strictly precedes key b in canonical
// member order. Both are bodies of string literals that str accepted.
func keyBefore(d []byte, a, b keyToken) bool {
	ka, kb := d[a.start:a.end], d[b.start:b.end]
	ia, ib := isArrayIndex(ka), isArrayIndex(kb)
	switch {
	case ia && ib:
		return len(ka) < len(kb) || (len(ka) == len(kb) && string(ka) < string(kb))
	case ia != ib:
		return ia
	case a.plain && b.plain:
		return compareUTF16(ka, kb) < 0
	}
	ra := unitReader[[]byte]{s: ka, escaped: true}
	rb := unitReader[[]byte]{s: kb, escaped: true}
	return compareUnits(&ra, &rb) < 0
}
