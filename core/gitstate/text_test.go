package gitstate

import "testing"

// TestDecodeTextReplacesMaximalSubparts checks the WHATWG decoder's
// replacement rule (one U+FFFD per maximal ill-formed subpart), using the
// examples of the Unicode Standard §3.9 (U+FFFD substitution of maximal
// subparts), which is what JavaScript's UTF-8 decoding produces.
func TestDecodeTextReplacesMaximalSubparts(t *testing.T) {
	const r = "\uFFFD"
	cases := []struct{ in, want string }{
		{"plain ascii", "plain ascii"},
		{"caf\xc3\xa9 \xf0\x9f\x98\x80", "café 😀"},
		{"\xef\xbf\xbd", r}, // an encoded U+FFFD stays one character
		{"\xe2\x82A", r + "A"},
		{"\xf0\x9f\x98", r},
		{"\xf0\x9f\x98\xf0\x9f\x98\x80", r + "😀"},
		{"\xc0\xaf", r + r},
		{"\xe0\x80\xaf", r + r + r},
		{"\xed\xa0\x80", r + r + r},
		{"\xf4\x90\x80\x80", r + r + r + r},
		{"\xff\xfe", r + r},
		{"\x80\x80", r + r},
		{"a\xc3", "a" + r},
		// Unicode Standard Table 3-8: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64.
		{"a\xf1\x80\x80\xe1\x80\xc2b\x80c\x80\xbfd", "a" + r + r + r + "b" + r + "c" + r + r + "d"},
	}
	for _, c := range cases {
		if got := decodeText([]byte(c.in)); got != c.want {
			t.Errorf("decodeText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// whatwgDecode is the WHATWG Encoding Standard's UTF-8 decoder written as
// its specification states it (a byte-at-a-time state machine), used as an
// independent oracle for decodeText.
func whatwgDecode(in []byte) string {
	var out []rune
	var cp rune
	seen, needed := 0, 0
	lower, upper := byte(0x80), byte(0xBF)
	for i := 0; i < len(in); i++ {
		b := in[i]
		if needed == 0 {
			switch {
			case b <= 0x7F:
				out = append(out, rune(b))
			case b >= 0xC2 && b <= 0xDF:
				needed, cp = 1, rune(b&0x1F)
			case b >= 0xE0 && b <= 0xEF:
				if b == 0xE0 {
					lower = 0xA0
				}
				if b == 0xED {
					upper = 0x9F
				}
				needed, cp = 2, rune(b&0xF)
			case b >= 0xF0 && b <= 0xF4:
				if b == 0xF0 {
					lower = 0x90
				}
				if b == 0xF4 {
					upper = 0x8F
				}
				needed, cp = 3, rune(b&0x7)
			default:
				out = append(out, 0xFFFD)
			}
			continue
		}
		if b < lower || b > upper {
			cp, needed, seen, lower, upper = 0, 0, 0, 0x80, 0xBF
			out = append(out, 0xFFFD)
			i-- // process the byte again
			continue
		}
		lower, upper = 0x80, 0xBF
		cp = cp<<6 | rune(b&0x3F)
		if seen++; seen == needed {
			out = append(out, cp)
			cp, needed, seen = 0, 0, 0
		}
	}
	if needed != 0 {
		out = append(out, 0xFFFD)
	}
	return string(out)
}

func FuzzDecodeTextAgreesWithTheWHATWGDecoder(f *testing.F) {
	for _, s := range []string{"", "abc", "\xe2\x82A", "\xf0\x9f\x98", "\xed\xa0\x80", "\xf4\x90\x80\x80",
		"a\xf1\x80\x80\xe1\x80\xc2b\x80c\x80\xbfd", "caf\xc3\xa9", "\xc3"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if got, want := decodeText(in), whatwgDecode(in); got != want {
			t.Fatalf("decodeText(%q) = %q, WHATWG decoder gives %q", in, got, want)
		}
	})
}
