package canon

// hexDigit returns the value of an ASCII hexadecimal digit of either case,
// or -1.
func hexDigit(b byte) int {
	switch {
	case b >= '0' && b <= '9':
		return int(b - '0')
	case b >= 'a' && b <= 'f':
		return int(b-'a') + 10
	case b >= 'A' && b <= 'F':
		return int(b-'A') + 10
	}
	return -1
}

// hex4 decodes the four hexadecimal digits at s[i:i+4], or returns -1 if
// they are missing or malformed.
func hex4[T text](s T, i int) rune {
	if i+4 > len(s) {
		return -1
	}
	var v rune
	for k := range 4 {
		d := hexDigit(s[i+k])
		if d < 0 {
			return -1
		}
		v = v<<4 | rune(d)
	}
	return v
}

// unescapeShort maps the character after a backslash in a two-character
// JSON escape to the character it stands for, or returns -1 if JSON has no
// such escape.
func unescapeShort(c byte) rune {
	switch c {
	case '"', '\\', '/':
		return rune(c)
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return -1
}

// shortEscape is the letter JSON.stringify uses after a backslash for a
// control character, or 0 when it uses the \u00xx form instead.
func shortEscape(b byte) byte {
	switch b {
	case '\b':
		return 'b'
	case '\f':
		return 'f'
	case '\n':
		return 'n'
	case '\r':
		return 'r'
	case '\t':
		return 't'
	}
	return 0
}

const lowerHex = "0123456789abcdef"

// appendUnitEscape appends \uxxxx with lowercase hex for one UTF-16 unit.
func appendUnitEscape(dst []byte, u rune) []byte {
	return append(dst, '\\', 'u',
		lowerHex[u>>12&0xF], lowerHex[u>>8&0xF], lowerHex[u>>4&0xF], lowerHex[u&0xF])
}
