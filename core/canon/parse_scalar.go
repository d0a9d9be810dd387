package canon

import (
	"strconv"
	"unicode/utf8"
)

// str reads the string literal starting at p.pos (its opening quote).
func (p *parser) str() (string, error) {
	d := p.data
	start := p.pos + 1 // first byte not yet copied into buf
	var buf []byte
	escaped := false
	for i := plainEnd(d, start); ; i = plainEnd(d, i) {
		if i >= len(d) {
			return "", p.fail(i, "unterminated string")
		}
		switch b := d[i]; {
		case b == '"':
			p.pos = i + 1
			if !escaped {
				return string(d[start:i]), nil
			}
			return string(append(buf, d[start:i]...)), nil
		case b == '\\':
			var err error
			if buf, i, err = p.escape(append(buf, d[start:i]...), i); err != nil {
				return "", err
			}
			start, escaped = i, true
		case b < 0x20:
			return "", p.fail(i, "control character in string")
		default:
			r, size := decodeRune(d, i, false)
			if r == badRune {
				return "", p.fail(i, "invalid UTF-8")
			}
			i += size
		}
	}
}

// escape decodes the escape sequence at d[i] (a backslash), appends what it
// stands for to buf and returns the index after it. A \u escape of a high
// surrogate directly followed by a \u escape of a low surrogate yields their
// character; any other surrogate escape yields its WTF-8 form.
func (p *parser) escape(buf []byte, i int) ([]byte, int, error) {
	d := p.data
	if i+1 >= len(d) {
		return buf, i, p.fail(i, "unterminated string")
	}
	if d[i+1] != 'u' {
		r := unescapeShort(d[i+1])
		if r < 0 {
			return buf, i, p.fail(i, "invalid escape sequence")
		}
		return append(buf, byte(r)), i + 2, nil
	}
	u := hex4(d, i+2)
	if u < 0 {
		return buf, i, p.fail(i, "invalid \\u escape")
	}
	i += 6
	if isHighSurrogate(u) && i+1 < len(d) && d[i] == '\\' && d[i+1] == 'u' {
		if lo := hex4(d, i+2); isLowSurrogate(lo) {
			return utf8.AppendRune(buf, combineSurrogates(u, lo)), i + 6, nil
		}
	}
	return appendWTF8(buf, u), i, nil
}

// appendWTF8 appends the generalised UTF-8 form of a BMP code point, which
// may be a surrogate.
func appendWTF8(buf []byte, u rune) []byte {
	if u < 0xD800 || u > 0xDFFF {
		return utf8.AppendRune(buf, u)
	}
	return append(buf, 0xED, byte(0x80|u>>6&0x3F), byte(0x80|u&0x3F))
}

// number reads the number starting at p.pos using the JSON grammar and
// rounds it to the nearest float64.
func (p *parser) number() (any, error) {
	end, ok := scanNumber(p.data, p.pos)
	if !ok {
		return nil, p.fail(end, "invalid number")
	}
	f, err := strconv.ParseFloat(string(p.data[p.pos:end]), 64)
	if err != nil && !isRangeError(err) {
		return nil, p.fail(p.pos, "invalid number")
	}
	p.pos = end
	return f, nil
}

// isRangeError reports a ParseFloat overflow; the ±Inf it returns is what
// JSON.parse produces too.
func isRangeError(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// scanNumber matches the JSON number grammar
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at d[i:] and returns the
// end of the token, or the offending index and false.
func scanNumber[T text](d T, i int) (int, bool) {
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i >= len(d) || !isDigit(d[i]):
		return i, false
	case d[i] == '0':
		i++
	default:
		i = skipDigits(d, i)
	}
	if i < len(d) && d[i] == '.' {
		if i++; i >= len(d) || !isDigit(d[i]) {
			return i, false
		}
		i = skipDigits(d, i)
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		if i++; i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || !isDigit(d[i]) {
			return i, false
		}
		i = skipDigits(d, i)
	}
	return i, true
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func skipDigits[T text](d T, i int) int {
	for i < len(d) && isDigit(d[i]) {
		i++
	}
	return i
}
