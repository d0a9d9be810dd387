package canon

// ContainsLoneSurrogateEscape reports whether the JSON text raw contains,
// inside a string literal, a \u escape of a surrogate that is not part of a
// high-then-low pair of escapes, i.e. text that JSON.parse turns into a
// string with an unpaired surrogate. It scans lexically and does not require
// raw to be valid JSON.
func ContainsLoneSurrogateEscape(raw []byte) bool {
	inString := false
	for i := 0; i < len(raw); i++ {
		switch b := raw[i]; {
		case b == '"':
			inString = !inString
		case b != '\\' || !inString:
		case i+1 < len(raw) && raw[i+1] == 'u':
			u := hex4(raw, i+2)
			if isLowSurrogate(u) {
				return true
			}
			if !isHighSurrogate(u) {
				i++ // skip the 'u'; the digits are ordinary characters
				continue
			}
			if i+7 >= len(raw) || raw[i+6] != '\\' || raw[i+7] != 'u' || !isLowSurrogate(hex4(raw, i+8)) {
				return true
			}
			i += 11 // the pair
		default:
			i++ // a two-character escape such as \" or \\
		}
	}
	return false
}
