package anchor

// A scanner for the ledger document that accepts exactly what JSON.parse
// accepts and, like the reference's JSON.parse, limits nesting only by the
// size of the input: a member nested 20,000 (or 2,000,000) levels deep is
// valid JSON there, so it must not make the ledger unreadable here. It is
// iterative and keeps one byte per open container. Values are not built:
// callers take the byte span of the members they need and decode only
// those (see jsonvalue.go).

// skipSpace returns the index of the first byte at or after i that is not
// one of the four whitespace characters JSON allows.
func skipSpace(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
		i++
	}
	return i
}

// scanValue returns the end of the JSON value that starts at d[i], or -1
// when no well-formed value starts there.
func scanValue(d []byte, i int) int {
	var open []byte // the closing bracket of each open container
	for {
		i = scanOpening(d, i, &open)
		if i < 0 {
			return -1
		}
		var more bool
		if i, more = scanAfterValue(d, i, &open); i < 0 || !more {
			return i
		}
	}
}

// scanOpening reads one value, or the opening of a container together with
// the start of its first member (pushing its closing bracket), and returns
// the index after what it read.
func scanOpening(d []byte, i int, open *[]byte) int {
	for {
		if i >= len(d) {
			return -1
		}
		switch c := d[i]; {
		case c == '{' || c == '[':
			closing := byte('}')
			if c == '[' {
				closing = ']'
			}
			j := skipSpace(d, i+1)
			if j < len(d) && d[j] == closing {
				return j + 1 // an empty container is a complete value
			}
			*open = append(*open, closing)
			if c == '{' {
				j = scanKeyColon(d, j)
			}
			if j < 0 {
				return -1
			}
			i = j
		case c == '"':
			return scanString(d, i)
		case c == '-' || (c >= '0' && c <= '9'):
			return scanNumber(d, i)
		default:
			return scanLiteral(d, i)
		}
	}
}

// scanAfterValue consumes the closing brackets and the separator that
// follow a value. It reports whether another value follows (and where it
// starts); false with i ≥ 0 means the outermost value ended at i.
func scanAfterValue(d []byte, i int, open *[]byte) (int, bool) {
	for len(*open) > 0 {
		i = skipSpace(d, i)
		if i >= len(d) {
			return -1, false
		}
		top := (*open)[len(*open)-1]
		switch d[i] {
		case top:
			*open = (*open)[:len(*open)-1]
			i++
		case ',':
			i = skipSpace(d, i+1)
			if top == '}' {
				i = scanKeyColon(d, i)
			}
			return i, i >= 0
		default:
			return -1, false
		}
	}
	return i, false
}

// scanKeyColon reads a member name and its colon and returns the start of
// the member's value.
func scanKeyColon(d []byte, i int) int {
	if i >= len(d) || d[i] != '"' {
		return -1
	}
	if i = scanString(d, i); i < 0 {
		return -1
	}
	if i = skipSpace(d, i); i >= len(d) || d[i] != ':' {
		return -1
	}
	return skipSpace(d, i+1)
}

// scanString returns the end of the string literal at d[i] (its quote).
// The text is already well-formed UTF-8 (see ledgerText), so only control
// characters and escapes need checking.
func scanString(d []byte, i int) int {
	for j := i + 1; j < len(d); {
		switch c := d[j]; {
		case c == '"':
			return j + 1
		case c < 0x20:
			return -1
		case c != '\\':
			j++
		case j+1 < len(d) && isShortEscape(d[j+1]):
			j += 2
		case j+5 < len(d) && d[j+1] == 'u' && isHex(d[j+2]) && isHex(d[j+3]) && isHex(d[j+4]) && isHex(d[j+5]):
			j += 6
		default:
			return -1
		}
	}
	return -1
}

func isShortEscape(c byte) bool {
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return true
	}
	return false
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// scanNumber returns the end of the number at d[i]:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func scanNumber(d []byte, i int) int {
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i = digits(d, i)
	default:
		return -1
	}
	if i < len(d) && d[i] == '.' {
		if i = digits(d, i+1); i < 0 {
			return -1
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		return digits(d, i)
	}
	return i
}

// digits returns the end of the run of at least one digit at d[i], or -1.
func digits(d []byte, i int) int {
	start := i
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}

func scanLiteral(d []byte, i int) int {
	for _, word := range []string{"true", "false", "null"} {
		if len(d)-i >= len(word) && string(d[i:i+len(word)]) == word {
			return i + len(word)
		}
	}
	return -1
}
