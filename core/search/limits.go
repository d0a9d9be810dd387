package search

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agenttool/collab/core/collaberr"
)

// Limits bound what one query may ask of FTS5. Matching costs grow with
// the number of terms, much faster with prefix terms (each one reads the
// posting lists of every word it could be) and faster still inside a wide
// NEAR group, which compares the positions of its phrases with each
// other: a 1,000-character NEAR over prefixes held a core for most of a
// minute on 200 reports. A query over any limit is refused before SQLite
// sees it, whatever face it came through.
type Limits struct {
	// Length is the most characters a query may have.
	Length int
	// Terms is the most words a query may hold: every run of letters and
	// digits counts, inside quoted phrases too, and so do the operators
	// AND, OR, NOT and NEAR and a NEAR group's width, because a query
	// that is not valid FTS5 runs with each of them as a quoted word.
	Terms int
	// Prefixes is the most prefix terms (word*) a query may hold.
	Prefixes int
	// NearWidth is the widest NEAR group a query may ask for, in words.
	NearWidth int
}

// DefaultLimits are the bounds every search applies unless its index was
// opened with others. On 200 tasks of 300 random words the costliest
// query within them (eight one-letter prefix terms) took 0.36 s, where
// the hostile queries of issue 36 took 5 to 51 s; on a larger journal
// the deadline is what bounds such a query.
var DefaultLimits = Limits{Length: 1000, Terms: 32, Prefixes: 8, NearWidth: 50}

// shape is what a query asks of FTS5, counted conservatively: the same
// counts hold whether the text runs as FTS5 syntax or as quoted words.
type shape struct {
	length, terms, prefixes, nearWidth int
}

// measure counts the terms, prefix terms and widest NEAR group of text.
// It does not parse FTS5: every run of letters and digits is a term,
// every * after a term, a closing quote or a token holding a term is a
// prefix (inside quotes too),
// and a NEAR group's width is the number after its last comma (FTS5's
// default of 10 when there is none).
func measure(text string) shape {
	m := meter{text: text, shape: shape{length: utf8.RuneCountInString(text)}}
	for m.i < len(text) {
		m.step()
	}
	return m.shape
}

// meter walks a query once, counting into shape.
type meter struct {
	text string
	i    int
	shape
	inQuote bool
	// lastWasTerm is set right after a term or a closing quote, where a
	// * makes a prefix; tokenHasTerm while the whitespace-separated token
	// so far holds a term, where a * makes one in the quoted-words
	// fallback.
	lastWasTerm, tokenHasTerm bool
}

// step consumes one word or one other character.
func (m *meter) step() {
	r, size := utf8.DecodeRuneInString(m.text[m.i:])
	if isTermRune(r) {
		m.word()
		return
	}
	m.i += size
	wasTerm := m.lastWasTerm
	m.lastWasTerm = false
	switch {
	case r == '"':
		m.inQuote = !m.inQuote
		m.lastWasTerm = !m.inQuote
	case r == '*' && (wasTerm || m.tokenHasTerm):
		// Inside quotes FTS5 ignores it, but an unbalanced quote sends
		// the text to the quoted-words fallback, where it is a prefix.
		m.prefixes++
	case unicode.IsSpace(r):
		m.tokenHasTerm = false
	}
}

// word consumes a run of term characters and counts it.
func (m *meter) word() {
	j := m.i
	for j < len(m.text) {
		r, n := utf8.DecodeRuneInString(m.text[j:])
		if !isTermRune(r) {
			break
		}
		j += n
	}
	word, rest := m.text[m.i:j], m.text[j:]
	m.i = j
	m.terms++
	m.lastWasTerm, m.tokenHasTerm = true, true
	if !m.inQuote && word == "NEAR" && strings.HasPrefix(strings.TrimLeft(rest, " \t\r\n"), "(") {
		m.nearWidth = max(m.nearWidth, nearWidth(rest))
	}
}

// isTermRune reports whether r is part of a word, as unicode61 splits text.
func isTermRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

// nearWidth reads the width of the NEAR group whose "(" starts rest: the
// number after its last comma, or 10 when it gives none. A group with no
// closing parenthesis is measured to the end of the text.
func nearWidth(rest string) int {
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		end = len(rest)
	}
	group := rest[:end]
	comma := strings.LastIndexByte(group, ',')
	if comma < 0 {
		return 10
	}
	digits := strings.TrimSpace(group[comma+1:])
	n, err := strconv.Atoi(digits)
	if err != nil || n < 0 {
		// Not a width FTS5 accepts: the query is a syntax error and runs
		// as quoted words, where NEAR is a word like any other.
		return 0
	}
	return n
}

// check refuses text that is over any limit, naming the limit and what to
// do instead.
func (l Limits) check(text string) error {
	s := measure(text)
	over := func(limit string, got, most int, message string) error {
		return collaberr.New(collaberr.QueryTooComplex, fmt.Sprintf(message, got, most)).
			With("limit", limit).With("value", got).With("maximum", most)
	}
	switch {
	case l.Length > 0 && s.length > l.Length:
		return over("length", s.length, l.Length, "The query has %d characters; at most %d are searched. Shorten it to the words that matter")
	case l.Terms > 0 && s.terms > l.Terms:
		return over("terms", s.terms, l.Terms, "The query has %d words; at most %d are searched at once. Search for fewer words")
	case l.Prefixes > 0 && s.prefixes > l.Prefixes:
		return over("prefixes", s.prefixes, l.Prefixes, "The query has %d prefix terms (word*); at most %d are searched at once. Write more of the words out in full")
	case l.NearWidth > 0 && s.nearWidth > l.NearWidth:
		return over("near_width", s.nearWidth, l.NearWidth, "The query asks for a NEAR group %d words wide; at most %d is searched. Narrow the NEAR group")
	}
	return nil
}
