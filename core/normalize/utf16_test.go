package normalize_test

import (
	"slices"
	"testing"
	"unicode/utf16"

	"github.com/agenttool/collab/core/normalize"
)

func TestLengthCountsUTF16CodeUnits(t *testing.T) {
	cases := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"\u00e9", 1},       // é, one BMP code point
		{"e\u0301", 2},      // e + combining acute
		{"\U0001F600", 2},   // emoji: a surrogate pair
		{"a\U0001F98Az", 4}, // fox between letters
		{"\uFFFF", 1},
	}
	for _, c := range cases {
		if got := normalize.Length(c.in); got != c.want {
			t.Errorf("Length(%+q) = %d, want %d", c.in, got, c.want)
		}
	}
}

// utf16Order is the definition CompareUTF16 must agree with.
func utf16Order(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

func TestCompareUTF16PutsSupplementaryBeforeHighBMP(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"a", "b", -1},
		{"ab", "a", 1},
		{"\U0001F600", "\uFF5E", -1}, // surrogate 0xD83D < 0xFF5E, unlike code point order
		{"\uFF5E", "\U0001F600", 1},
		{"\uD7FF", "\U00010000", -1}, // below the surrogate block: code point order holds
		{"\U00010000", "\U0010FFFF", -1},
		{"x\U0001F600", "x\uE000", -1},
		{"src/app", "src/app", 0},
	}
	for _, c := range cases {
		if got := normalize.CompareUTF16(c.a, c.b); got != c.want {
			t.Errorf("CompareUTF16(%+q, %+q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := utf16Order(c.a, c.b); got != c.want {
			t.Errorf("test case is wrong: UTF-16 order of %+q, %+q is %d", c.a, c.b, got)
		}
	}
}

func TestSortUniqueMatchesJavaScriptSort(t *testing.T) {
	var table struct {
		Input  []string `json:"input"`
		Sorted []string `json:"sorted"`
	}
	loadTable(t, "js_sort.json", &table)
	input := slices.Clone(table.Input)
	got := normalize.SortUnique(input)
	if !slices.Equal(got, table.Sorted) {
		t.Errorf("SortUnique differs from Node's sort:\n got %+q\nwant %+q", got, table.Sorted)
	}
	if !slices.Equal(input, table.Input) {
		t.Error("SortUnique modified its argument")
	}
}

func TestSortUniqueNeverReturnsNil(t *testing.T) {
	if got := normalize.SortUnique(nil); got == nil || len(got) != 0 {
		t.Errorf("SortUnique(nil) = %#v, want an empty non-nil slice", got)
	}
}

func FuzzCompareUTF16(f *testing.F) {
	f.Add("\U0001F600", "\uFF5E")
	f.Add("abc", "abd")
	f.Add("e\u0301", "\u00e9")
	f.Fuzz(func(t *testing.T, a, b string) {
		got := normalize.CompareUTF16(a, b)
		if got != -normalize.CompareUTF16(b, a) {
			t.Fatalf("CompareUTF16 is not antisymmetric on %+q, %+q", a, b)
		}
		if (got == 0) != (a == b) {
			t.Fatalf("CompareUTF16(%+q, %+q) = %d but equality is %v", a, b, got, a == b)
		}
		if !utf8Valid(a) || !utf8Valid(b) {
			return
		}
		if want := utf16Order(a, b); got != want {
			t.Fatalf("CompareUTF16(%+q, %+q) = %d, UTF-16 order says %d", a, b, got, want)
		}
	})
}
