package field

// The identifier rule: one to MaxID ASCII letters, digits, '.', '_', ':'
// and '-', the first a letter or digit. Ids of workspaces, tasks, leases,
// sessions, reports and handoffs, client instance ids and idempotency keys
// all follow it; IDPattern states it to clients and IsID applies it.
const (
	// IDPattern is the rule as the tool schemas state it (the length
	// bound travels separately, as maxLength).
	IDPattern = `^[A-Za-z0-9][A-Za-z0-9._:-]*$`
	// MaxID is the longest identifier, in characters (all ASCII, so
	// bytes and UTF-16 code units agree).
	MaxID = 200
)

// IsID reports whether s is an identifier: at most MaxID bytes matching
// IDPattern. It is written by hand rather than compiled from IDPattern so
// that no process start pays for a regular expression; a test holds the
// two to the same answers.
func IsID(s string) bool {
	return len(s) <= MaxID && MatchesID(s)
}

// MatchesID reports whether s matches IDPattern, whatever its length.
func MatchesID(s string) bool {
	return matchesToken(s, isASCIIAlnum)
}

// MatchesSymbol reports whether s matches the lower-case form of the rule,
// ^[a-z0-9][a-z0-9._:-]*$, which runtime kinds and declared capabilities
// must meet once lower-cased.
func MatchesSymbol(s string) bool {
	return matchesToken(s, func(c byte) bool { return ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') })
}

// matchesToken reports whether s is one or more bytes, all accepted by
// alnum or one of ". _ : -", the first accepted by alnum.
func matchesToken(s string, alnum func(byte) bool) bool {
	if s == "" || !alnum(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case alnum(c), c == '.', c == '_', c == ':', c == '-':
		default:
			return false
		}
	}
	return true
}

func isASCIIAlnum(c byte) bool {
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}
