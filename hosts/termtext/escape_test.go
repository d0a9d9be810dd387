package termtext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLabelAndBodyEscapeEveryTerminalControl(t *testing.T) {
	cases := []struct {
		name, in, label, body string
	}{
		{"plain ascii", "alice: done", "alice: done", "alice: done"},
		{"plain utf-8", "café → ✔ 日本", "café → ✔ 日本", "café → ✔ 日本"},
		{"empty", "", "", ""},
		{"line feed and tab", "a\nb\tc", `a\nb\tc`, "a\nb\tc"},
		{"carriage return", "ok\rEVIL", `ok\rEVIL`, `ok\rEVIL`},
		{"window title (OSC 0, BEL)", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`, `\x1b]0;pwned\x07`},
		{"clear screen", "\x1b[2J\x1b[H", `\x1b[2J\x1b[H`, `\x1b[2J\x1b[H`},
		{"clipboard (OSC 52, ST)", "\x1b]52;c;ZXZpbA==\x1b\\", `\x1b]52;c;ZXZpbA==\x1b\`, `\x1b]52;c;ZXZpbA==\x1b\`},
		{"NUL, backspace, DEL", "a\x00b\x08c\x7f", `a\x00b\x08c\x7f`, `a\x00b\x08c\x7f`},
		{"C1 CSI and OSC", "\u009b2J\u009d0;t\u009c", `\u009b2J\u009d0;t\u009c`, `\u009b2J\u009d0;t\u009c`},
		{"C1 edges", "\u0080\u009f\u00a0", `\u0080\u009f` + "\u00a0", `\u0080\u009f` + "\u00a0"},
		{"bidi override (Trojan Source)", "ab\u202egnp.exe", `ab\u202egnp.exe`, `ab\u202egnp.exe`},
		{"bidi isolates and marks", "\u2066x\u2069\u200e\u200f\u061c", `\u2066x\u2069\u200e\u200f\u061c`, `\u2066x\u2069\u200e\u200f\u061c`},
		{"line and paragraph separators", "a\u2028b\u2029c", `a\u2028b\u2029c`, `a\u2028b\u2029c`},
		{"raw 8-bit CSI byte", "x\x9b2Jy", `x\x9b2Jy`, `x\x9b2Jy`},
		{"truncated utf-8", "x\xe2\x82", `x\xe2\x82`, `x\xe2\x82`},
		{"backslash stays", `C:\dir\x1b`, `C:\dir\x1b`, `C:\dir\x1b`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Label(c.in); got != c.label {
				t.Errorf("Label(%q) = %q, want %q", c.in, got, c.label)
			}
			if got := Body(c.in); got != c.body {
				t.Errorf("Body(%q) = %q, want %q", c.in, got, c.body)
			}
		})
	}
}

// No output of Label or Body holds a byte a terminal acts on: no C0 but
// (in a body) line feed and tab, no DEL, no raw 8-bit C1 byte outside a
// valid UTF-8 sequence, no C1 rune, and it is valid UTF-8.
func FuzzEscapedTextHoldsNoControl(f *testing.F) {
	for _, s := range []string{"\x1b]52;c;x\x07", "\u009b\u202e", "\xff\x9b", "a\nb\tc\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, keep := range []bool{false, true} {
			out := escape(s, keep)
			if !utf8.ValidString(out) {
				t.Fatalf("escape(%q, %v) = %q is not UTF-8", s, keep, out)
			}
			for _, r := range out {
				if unsafe(r, keep) {
					t.Fatalf("escape(%q, %v) = %q keeps %U", s, keep, out, r)
				}
			}
			if firstUnsafe(s, keep) == len(s) && out != s {
				t.Fatalf("safe text %q was changed to %q", s, out)
			}
			if !keep && strings.ContainsAny(out, "\n\t") {
				t.Fatalf("Label kept a line break or tab: %q", out)
			}
		}
	})
}
