package find

import (
	"crypto/rand"
	"encoding/hex"
	"strings"

	"github.com/agenttool/collab/hosts/termtext"
)

// snippetMarks are the strings the index puts around each match of a
// snippet printed on a colour terminal. They hold a random nonce, so no
// journal text can contain them: the snippet is split at them, each part
// escaped (hosts/termtext) and only then are the marks turned into bold.
// The zero value marks nothing (the index's default "**" stays as text).
type snippetMarks struct{ open, close string }

func newSnippetMarks() snippetMarks {
	b := make([]byte, 12)
	rand.Read(b)
	nonce := hex.EncodeToString(b)
	return snippetMarks{open: "\ue000" + nonce + "[", close: "]" + nonce + "\ue001"}
}

// render returns s escaped for the terminal, its marks as bold on and off.
func (m snippetMarks) render(s string) string {
	if m.open == "" {
		return termtext.Label(s)
	}
	var b strings.Builder
	for s != "" {
		before, rest, found := strings.Cut(s, m.open)
		b.WriteString(termtext.Label(before))
		if !found {
			break
		}
		match, after, _ := strings.Cut(rest, m.close)
		b.WriteString("\x1b[1m" + termtext.Label(match) + "\x1b[0m")
		s = after
	}
	return b.String()
}
