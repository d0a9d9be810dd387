package normalize_test

import (
	"testing"

	"github.com/agenttool/collab/core/normalize"
)

func TestCleanTextTrimsAndReturnsText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"  Build parser \n", "Build parser"},
		{"\uFEFFtitle", "title"},
		{"\u0085title", "\u0085title"}, // U+0085 is not JS white space
		{"line one\nline two", "line one\nline two"},
		{repeat("x", 300), repeat("x", 300)},
		{repeat("\U0001F98A", 150), repeat("\U0001F98A", 150)}, // 300 UTF-16 units exactly
	}
	for _, c := range cases {
		got, err := normalize.CleanText(c.in, "title", 300)
		if err != nil || got != c.want {
			t.Errorf("CleanText(%+q) = %+q, %v; want %+q", c.in, got, err, c.want)
		}
	}
}

func TestCleanTextRefusals(t *testing.T) {
	cases := []struct {
		name, in, hint string
	}{
		{"empty", "", "empty"},
		{"white space only", " \t\uFEFF\u3000 ", "empty"},
		{"too long in UTF-16 units", repeat("\U0001F98A", 150) + "x", "longer than 300"},
		{"too long after trimming", " " + repeat("x", 301) + " ", "longer than 300"},
		{"NUL inside", "a\x00b", "NUL"},
		{"NUL is not white space", "\x00", "NUL"},
		{"length is checked before NUL", repeat("x", 300) + "\x00", "longer"},
		{"malformed UTF-8", "ab\xffcd", "UTF-8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := normalize.CleanText(c.in, "title", 300)
			wantRefusal(t, err, "invalid_title", c.hint)
		})
	}
}

func TestCleanTextLengthLimitIsInclusive(t *testing.T) {
	if _, err := normalize.CleanText(repeat("a", 2000), "reason", 2000); err != nil {
		t.Errorf("2000 units at max 2000 refused: %v", err)
	}
	_, err := normalize.CleanText(repeat("a", 2001), "reason", 2000)
	wantRefusal(t, err, "invalid_reason", "2000")
}

func TestOptionalTextTreatsBlankAsAbsent(t *testing.T) {
	for _, in := range []*string{nil, ptr(""), ptr("   "), ptr("\uFEFF\n")} {
		got, err := normalize.OptionalText(in, "note", 2000)
		if err != nil || got != nil {
			t.Errorf("OptionalText(%v) = %v, %v; want nil, nil", in, got, err)
		}
	}
	got, err := normalize.OptionalText(ptr("  keep me "), "note", 2000)
	if err != nil || got == nil || *got != "keep me" {
		t.Errorf("OptionalText kept value = %v, %v", got, err)
	}
	_, err = normalize.OptionalText(ptr(repeat("n", 2001)), "note", 2000)
	wantRefusal(t, err, "invalid_note", "longer")
	_, err = normalize.OptionalText(ptr("a\x00"), "note", 2000)
	wantRefusal(t, err, "invalid_note", "NUL")
}

func ptr[T any](v T) *T { return &v }
