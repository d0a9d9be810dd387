package search

import (
	"strings"
	"unicode"
)

// words turns free text into an FTS5 expression that cannot be a syntax
// error: every whitespace-separated token becomes a quoted phrase (so
// quotes, colons, hyphens and operators lose their meaning), a trailing *
// keeps its prefix meaning, and tokens with no letter or digit are
// dropped. The phrases are joined by join (" " for AND, " OR "). It returns "" when no token is left.
//
// A query is first run as written, so FTS5 syntax works; words is the
// fallback when SQLite refuses it.
func words(text, join string) string {
	var out []string
	for _, tok := range strings.Fields(text) {
		prefix := strings.HasSuffix(tok, "*")
		tok = strings.TrimRight(tok, "*")
		if !strings.ContainsFunc(tok, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			continue
		}
		phrase := `"` + strings.ReplaceAll(tok, `"`, `""`) + `"`
		if prefix {
			phrase += "*"
		}
		out = append(out, phrase)
	}
	return strings.Join(out, join)
}

// prefixes is words with every phrase a prefix term, so that a word a
// person typed part of still matches: "rate limi" becomes
// "rate"* "limi"*.
func prefixes(text string) string {
	terms := strings.Fields(words(text, " "))
	for i, t := range terms {
		if !strings.HasSuffix(t, "*") {
			terms[i] = t + "*"
		}
	}
	return strings.Join(terms, " ")
}
