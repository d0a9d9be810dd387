package normalize_test

import (
	"testing"
	"unicode"

	"github.com/agenttool/collab/core/normalize"
)

func TestTrimJSRemovesExactlyTheCodePointsNodeRemoves(t *testing.T) {
	var table struct {
		Trimmed []rune `json:"trimmed"`
	}
	loadTable(t, "js_trim.json", &table)
	space := make(map[rune]bool, len(table.Trimmed))
	for _, r := range table.Trimmed {
		space[r] = true
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		got := normalize.TrimJS(string(r)) == ""
		if got != space[r] {
			t.Errorf("TrimJS removes %U: %v, Node: %v", r, got, space[r])
		}
	}
}

func TestTrimJSDiffersFromTrimSpaceOnBOMAndNextLine(t *testing.T) {
	cases := []struct{ in, want string }{
		{"\uFEFFabc\uFEFF", "abc"},             // BOM is trimmed
		{"\u0085abc\u0085", "\u0085abc\u0085"}, // NEXT LINE is kept
		{"\u180Eabc", "\u180Eabc"},             // MONGOLIAN VOWEL SEPARATOR is kept
		{" \t\n a b \u3000\u2028", "a b"},      // inner space stays
		{"", ""},
	}
	for _, c := range cases {
		if got := normalize.TrimJS(c.in); got != c.want {
			t.Errorf("TrimJS(%+q) = %+q, want %+q", c.in, got, c.want)
		}
	}
}
