package canon

import "bytes"

// RawLineSeparators rewrites the \u2028 and \u2029 escapes that
// encoding/json always writes into the raw characters, as JSON.stringify
// emits them, so text rendered here is byte for byte what the reference
// writes. An escaped backslash followed by "u2028" is left alone. The
// input is not modified; when it holds no such escape it is returned as is.
func RawLineSeparators(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u202`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			out = append(out, c)
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) && string(b[i+2:i+5]) == "202" && (b[i+5] == '8' || b[i+5] == '9') {
			if b[i+5] == '8' {
				out = append(out, "\u2028"...)
			} else {
				out = append(out, "\u2029"...)
			}
			i += 5
			continue
		}
		out = append(out, c, b[i+1])
		i++
	}
	return out
}
