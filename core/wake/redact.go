package wake

import (
	"strings"

	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/tokens"
)

// Redacted replaces each token-shaped secret in a notice.
const Redacted = "<redacted>"

// Redact replaces in text every word shaped like a secret this
// installation issues, whoever it belongs to:
//   - an HTTP bearer token (tokens.IsTokenShaped: "collab_" and 43
//     base64url characters), also at the end of a longer word such as
//     TOKEN_collab_…;
//   - a session token (credfile.IsTokenShaped: 43 base64url characters)
//     that mixes upper- and lower-case letters, as all but about one in
//     2.7 billion random tokens do; requiring both spares 43-character
//     identifiers such as snake_case or kebab-case names.
//
// A word is a maximal run of base64url characters (A-Z a-z 0-9 - _), so a
// token is found where it is written as a word of its own: after "=", ":",
// a quote, a space or a line break. One split, encoded or glued to more
// letters gets through; so does a secret of another kind.
func Redact(text string) string {
	var b strings.Builder
	last := 0
	for start := 0; start < len(text); {
		if !isWordByte(text[start]) {
			start++
			continue
		}
		end := start
		for end < len(text) && isWordByte(text[end]) {
			end++
		}
		if from, ok := secretIn(text[start:end]); ok {
			b.WriteString(text[last : start+from])
			b.WriteString(Redacted)
			last = end
		}
		start = end
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// secretIn returns where in word a secret starts, if word ends with one.
func secretIn(word string) (int, bool) {
	if credfile.IsTokenShaped(word) && strings.ContainsAny(word, upper) && strings.ContainsAny(word, lower) {
		return 0, true
	}
	if i := len(word) - httpTokenLength; i >= 0 && tokens.IsTokenShaped(word[i:]) {
		return i, true
	}
	return 0, false
}

// httpTokenLength is the length of every HTTP bearer token.
const httpTokenLength = len(tokens.Prefix) + credfile.TokenLength

const (
	upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower = "abcdefghijklmnopqrstuvwxyz"
)

func isWordByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}
