package cli

import (
	"encoding/json"
	"errors"
	"testing"
)

type label string

func TestSafefEscapesEveryArgumentThatCanCarryJournalText(t *testing.T) {
	esc := "\x1b]0;t\x07"
	cases := []struct {
		name   string
		format string
		args   []any
		want   string
	}{
		{"string with width", "%-8s|", []any{"a\x1bb"}, `a\x1bb  |`},
		{"named string type", "%s", []any{label(esc)}, `\x1b]0;t\x07`},
		{"raw JSON", "%s", []any{json.RawMessage(`{"a":"` + "\u009b" + `"}`)}, `{"a":"\u009b"}`},
		{"error", "%v", []any{errors.New("no\rpe")}, `no\rpe`},
		{"slice of strings", "%v", []any{[]string{"a\x07", "b"}}, `[a\x07 b]`},
		{"numbers pass", "%5d %v %t", []any{42, int64(7), true}, "   42 7 true"},
		{"body keeps lines and tabs", "%s", []any{body("a\nb\tc\x1b")}, "a\nb\tc\\x1b"},
		{"label loses them", "%s", []any{"a\nb\tc"}, `a\nb\tc`},
		{"shown passes", "%s", []any{shown("\x1b[1mx\x1b[0m")}, "\x1b[1mx\x1b[0m"},
	}
	for _, c := range cases {
		if got := string(safef(c.format, c.args...)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	p := &printer{color: true}
	if got := p.paint("1", esc); got != shown("\x1b[1m"+`\x1b]0;t\x07`+"\x1b[0m") {
		t.Errorf("paint kept the text's own escapes: %q", got)
	}
}
