package canon

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestParseRejectsWhatJSONParseRejects(t *testing.T) {
	for _, tc := range []struct{ why, text string }{
		{"empty", ``},
		{"only whitespace", " \n"},
		{"byte order mark is not whitespace", "\uFEFF{}"},
		{"vertical tab is not whitespace", "\v1"},
		{"trailing comma in array", `[1,]`},
		{"trailing comma in object", `{"a":1,}`},
		{"single quotes", `{'a':1}`},
		{"unquoted key", `{a:1}`},
		{"missing colon", `{"a" 1}`},
		{"missing value", `{"a":}`},
		{"leading zero", `01`},
		{"leading plus", `+1`},
		{"bare minus", `-`},
		{"fraction without digits", `1.`},
		{"fraction without integer", `.5`},
		{"exponent without digits", `1e`},
		{"exponent sign without digits", `1e+`},
		{"hexadecimal", `0x10`},
		{"Infinity", `Infinity`},
		{"NaN", `NaN`},
		{"truncated literal", `tru`},
		{"capitalised literal", `True`},
		{"raw newline in string", "\"a\nb\""},
		{"raw NUL in string", "\"a\x00b\""},
		{"unknown escape", `"\x41"`},
		{"short unicode escape", `"\u12"`},
		{"non-hex unicode escape", `"\u12g4"`},
		{"unterminated string", `"abc`},
		{"backslash at end", `"abc\`},
		{"invalid UTF-8", "\"\xff\""},
		{"truncated UTF-8", "\"\xe6\x97\""},
		{"UTF-8 surrogate", "\"\xed\xa0\x80\""},
		{"overlong UTF-8", "\"\xc0\xaf\""},
		{"two values", `1 2`},
		{"unclosed array", `[1`},
		{"unclosed object", `{"a":1`},
		{"too deep", strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)},
	} {
		v, err := Parse([]byte(tc.text))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: Parse(%q) = %#v, %v; want a *SyntaxError", tc.why, tc.text, v, err)
			continue
		}
		if se.Offset < 0 || se.Offset > len(tc.text) {
			t.Errorf("%s: offset %d outside the input", tc.why, se.Offset)
		}
		if _, err := Canonicalize([]byte(tc.text)); err == nil {
			t.Errorf("%s: Canonicalize accepted %q", tc.why, tc.text)
		}
	}
}

func TestParseFollowsJSONParseSemantics(t *testing.T) {
	for _, tc := range []struct {
		why, text string
		want      any
	}{
		{"surrounding whitespace", " \t\r\n1 \n", 1.0},
		{"last duplicate wins", `{"a":1,"a":2}`, map[string]any{"a": 2.0}},
		{"__proto__ is a plain key", `{"__proto__":[]}`, map[string]any{"__proto__": []any{}}},
		{"escaped slash", `"\/"`, "/"},
		{"uppercase hex escape", `"\u00E9"`, "é"},
		{"escaped pair", `"\uD83D\uDE00"`, "\U0001F600"},
		{"lone high surrogate", `"\ud800"`, "\xed\xa0\x80"},
		{"lone low surrogate", `"\udfff"`, "\xed\xbf\xbf"},
		{"high then high", `"\ud800\ud83d\ude00"`, "\xed\xa0\x80\U0001F600"},
		{"high then non-escape", `"\ud800\n"`, "\xed\xa0\x80\n"},
		{"raw text kept", "\"\u2028<>&\u007f\"", "\u2028<>&\u007f"},
		{"precision loss above 2^53", `9007199254740993`, 9007199254740992.0},
		{"underflow to zero", `1e-400`, 0.0},
		{"negative zero", `-0`, math.Copysign(0, -1)},
		{"overflow to infinity", `-2e308`, math.Inf(-1)},
		{"empty containers", `[{},[]]`, []any{map[string]any{}, []any{}}},
		{"deepest allowed nesting", strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth), nested(maxDepth)},
	} {
		got, err := Parse([]byte(tc.text))
		if err != nil {
			t.Errorf("%s: Parse(%q): %v", tc.why, tc.text, err)
			continue
		}
		if d := exactDiff(got, tc.want); d != "" {
			t.Errorf("%s: Parse(%q): %s", tc.why, tc.text, d)
		}
	}
}

func nested(depth int) any {
	v := []any{}
	for range depth - 1 {
		v = []any{v}
	}
	return v
}
