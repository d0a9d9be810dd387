package anchor

import (
	"strings"
	"testing"

	"github.com/agenttool/collab/core/canon"
)

func TestClampMeasuresUTF16UnitsAndReplacesControls(t *testing.T) {
	smile := "\U0001F600" // two UTF-16 units
	cases := []struct {
		name, in string
		limit    int
		want     string
	}{
		{"short string unchanged", "abc", 5, "abc"},
		{"exactly at limit unchanged", "abcde", 5, "abcde"},
		{"one unit over is cut", "abcdef", 5, "abcde…"},
		{"C0, DEL become spaces; C1 kept", "a\x00b\x1fc\x7fd\u0080", 10, "a b c d\u0080"},
		{"tab and newline become spaces", "a\tb\nc\r", 10, "a b c "},
		{"replacement happens before measuring", "\x00\x00\x00", 2, "  …"},
		{"pair counts two units", strings.Repeat(smile, 3), 6, strings.Repeat(smile, 3)},
		{"pair beyond limit dropped whole", strings.Repeat(smile, 3) + "x", 6, strings.Repeat(smile, 3) + "…"},
		{"pair split by the cut keeps the lone high surrogate", "a" + smile + "b", 2, "a\xed\xa0\xbd…"},
		{"a lone surrogate counts one unit and is kept", "\xed\xa0\x80x\xed\xb0\x80yz", 4, "\xed\xa0\x80x\xed\xb0\x80y…"},
		{"a lone surrogate after a control", "\x01\xed\xbf\xbf", 5, " \xed\xbf\xbf"},
		{"BMP non-ASCII counts one unit", "ééééé", 4, "éééé…"},
		{"zero limit", "x", 0, "…"},
		{"empty string", "", 0, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := clamp(tc.in, tc.limit); got != tc.want {
				t.Fatalf("clamp(%q, %d) = %q, want %q", tc.in, tc.limit, got, tc.want)
			}
		})
	}
}

// TestClampNeverExceedsLimitPlusEllipsis checks the bound the result
// promises, measured the way JavaScript measures length.
func TestClampNeverExceedsLimitPlusEllipsis(t *testing.T) {
	inputs := []string{strings.Repeat("\U0001F600", 100), strings.Repeat("a\x01", 90), strings.Repeat("é", 300)}
	for _, in := range inputs {
		for _, limit := range []int{1, 31, 32, 63, 64, 127, 128} {
			got := clamp(in, limit)
			if n := canon.LengthUTF16(got); n > limit+1 {
				t.Fatalf("clamp(…, %d) has %d units", limit, n)
			}
		}
	}
}
