package termtext

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Label returns s with every control character escaped, line feeds and
// tabs included: for text that must stay on its line (an actor label, an
// id, a title, a path).
func Label(s string) string { return escape(s, false) }

// Body returns s with every control character escaped except line feed
// and tab: for free text whose lines are shown as written (a report body,
// a handoff summary, a decision).
func Body(s string) string { return escape(s, true) }

// escape is the one escaping rule; keepLayout keeps '\n' and '\t'.
func escape(s string, keepLayout bool) string {
	i := firstUnsafe(s, keepLayout)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			writeHex(&b, rune(s[i]), 2, `\x`)
		case !unsafe(r, keepLayout):
			b.WriteString(s[i : i+size])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80:
			writeHex(&b, r, 2, `\x`)
		default:
			writeHex(&b, r, 4, `\u`)
		}
		i += size
	}
	return b.String()
}

// firstUnsafe returns the index of the first byte that starts something
// to escape, or len(s).
func firstUnsafe(s string, keepLayout bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafe(r, keepLayout) {
			return i
		}
		i += size
	}
	return len(s)
}

// unsafe reports whether r must not reach a terminal as it is.
func unsafe(r rune, keepLayout bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return !keepLayout
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c || r == 0x200e || r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	}
	return false
}

// writeHex writes prefix and r in lower-case hex, zero-padded to width.
func writeHex(b *strings.Builder, r rune, width int, prefix string) {
	h := strconv.FormatInt(int64(r), 16)
	b.WriteString(prefix)
	for n := len(h); n < width; n++ {
		b.WriteByte('0')
	}
	b.WriteString(h)
}
