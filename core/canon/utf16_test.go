package canon

import (
	"slices"
	"testing"
	"unicode/utf16"
)

// jsCompare is an independent model of JavaScript string comparison: encode
// both strings to UTF-16 and compare unit by unit.
func jsCompare(a, b []uint16) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return cmpInt(int(a[i]), int(b[i]))
		}
	}
	return cmpInt(len(a), len(b))
}

// unitSamples are UTF-16 sequences chosen to hit every ordering corner:
// ASCII, Latin-1, the surrogate range as lone units, U+E000..U+FFFF and
// supplementary characters, as prefixes of each other.
var unitSamples = [][]uint16{
	{}, {'a'}, {'a', 0}, {'a', 'b'}, {'Z'}, {0x7F}, {0xC9}, {0xE9}, {0x800}, {0xD7FF},
	{0xD800}, {0xD800, 'x'}, {0xD800, 0xD800}, {0xD800, 0xDC00}, {0xD800, 0xDFFF}, {0xD800, 0xFFFF},
	{0xDBFF}, {0xDBFF, 0xDFFF}, {0xDC00}, {0xDC00, 0xD800}, {0xDFFF},
	{0xD835, 0xDCB3}, {0xD83D, 0xDE00}, {0xD83D, 0xDE00, 'a'}, {0xE000}, {0xFEFF}, {0xFF21}, {0xFFFF},
	{0xFFFF, 0xD800}, {'a', 0xD83D, 0xDE00}, {'a', 0xFF21},
}

func TestCompareUTF16MatchesCodeUnitOrder(t *testing.T) {
	for _, a := range unitSamples {
		for _, b := range unitSamples {
			sa, sb := wtf8FromUTF16(a), wtf8FromUTF16(b)
			if got, want := CompareUTF16(sa, sb), jsCompare(a, b); got != want {
				t.Errorf("CompareUTF16(%x, %x) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func TestSortStringsOrdersLikeArraySort(t *testing.T) {
	got := []string{"\uFF21", "\U0001D4B3", "\uE000", "\U0001F600", "z", "\u00e9", "\u00c9", "e", "Z", "\xed\xa0\x80"}
	SortStrings(got)
	want := []string{"Z", "e", "z", "\u00c9", "\u00e9", "\xed\xa0\x80", "\U0001D4B3", "\U0001F600", "\uE000", "\uFF21"}
	if !slices.Equal(got, want) {
		t.Errorf("SortStrings = %q, want %q", got, want)
	}
}

func TestLengthUTF16CountsCodeUnits(t *testing.T) {
	for _, units := range unitSamples {
		s := wtf8FromUTF16(units)
		if got := LengthUTF16(s); got != len(units) {
			t.Errorf("LengthUTF16(%q) = %d, want %d", s, got, len(units))
		}
	}
	if got := LengthUTF16("a\xffb"); got != 3 {
		t.Errorf("LengthUTF16 with an invalid byte = %d, want 3", got)
	}
}

func TestHasLoneSurrogateFindsUnpairedSurrogates(t *testing.T) {
	for _, units := range unitSamples {
		want := false
		for i := 0; i < len(units); i++ {
			switch u := rune(units[i]); {
			case utf16.IsSurrogate(u) && i+1 < len(units) && utf16.DecodeRune(u, rune(units[i+1])) != 0xFFFD:
				i++
			case utf16.IsSurrogate(u):
				want = true
			}
		}
		s := wtf8FromUTF16(units)
		if got := HasLoneSurrogate(s); got != want {
			t.Errorf("HasLoneSurrogate(%q) = %v, want %v", s, got, want)
		}
	}
	if !HasLoneSurrogate("x\xed\xa0\x80") || HasLoneSurrogate("\xed\xa0\xbd\xed\xb8\x80") {
		t.Error("WTF-8 halves: a trailing high is lone, an adjacent high+low pair is not")
	}
}

func TestContainsLoneSurrogateEscape(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want bool
	}{
		{`{"a":"\ud800"}`, true},
		{`"\uDC00"`, true},
		{`"\ud83d\ude00"`, false},
		{`"\uD83D\uDE00"`, false},
		{`"\ud83d\ude00\ud83d"`, true},
		{`"\udc00\ud800"`, true},
		{`"\\ud800"`, false},
		{`"\\\ud800"`, true},
		{`"\u0041\"\ud800"`, true},
		{`"plain", "text"`, false},
		{`\ud800`, false},
		{`{"k\ud800":1}`, true},
		{"\"\U0001F600\"", false},
	} {
		if got := ContainsLoneSurrogateEscape([]byte(tc.raw)); got != tc.want {
			t.Errorf("ContainsLoneSurrogateEscape(%s) = %v, want %v", tc.raw, got, tc.want)
		}
	}
}

func TestArrayIndexKeys(t *testing.T) {
	for key, want := range map[string]bool{
		"0": true, "1": true, "10": true, "4294967294": true, "999999999": true,
		"": false, "01": false, "-1": false, "1.5": false, " 1": false, "4294967295": false,
		"9999999999": false, "42949672940": false, "1e3": false, "\uFF11": false,
	} {
		if got := isArrayIndex(key); got != want {
			t.Errorf("isArrayIndex(%q) = %v, want %v", key, got, want)
		}
	}
}
