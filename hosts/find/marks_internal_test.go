package find

import (
	"testing"
)

// A snippet's own marks turn bold; journal text that imitates bold, or
// carries any other escape, is escaped.
func TestSnippetMarksBoldOnlyTheirOwnMatches(t *testing.T) {
	m := newSnippetMarks()
	in := "pre \x1b[1mfake\x1b[0m " + m.open + "hit\x07" + m.close + " post\u009b"
	want := `pre \x1b[1mfake\x1b[0m ` + "\x1b[1m" + `hit\x07` + "\x1b[0m" + ` post\u009b`
	if got := m.render(in); got != want {
		t.Fatalf("render = %q, want %q", got, want)
	}
	if got := (snippetMarks{}).render("**a**\x1b"); got != `**a**\x1b` {
		t.Fatalf("without marks: %q", got)
	}
}
