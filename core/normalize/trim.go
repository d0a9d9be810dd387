package normalize

import "strings"

// TrimJS removes leading and trailing white space exactly as ECMAScript's
// String.prototype.trim does. Unlike strings.TrimSpace it removes U+FEFF
// and keeps U+0085 (NEXT LINE); like it, it keeps U+180E.
func TrimJS(s string) string {
	return strings.TrimFunc(s, isJSSpace)
}

// isJSSpace reports whether r is ECMAScript WhiteSpace or LineTerminator:
// TAB, VT, FF, ZWNBSP (U+FEFF), the Space_Separator category, LF, CR, LS
// and PS.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
