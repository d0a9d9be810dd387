package normalize

import (
	"strings"
	"unicode/utf8"

	"github.com/agenttool/collab/core/collaberr"
)

// CleanText trims v with TrimJS and returns the trimmed text when it is
// valid for field: not empty, at most max UTF-16 code units, free of NUL
// and well-formed UTF-8. Otherwise it refuses with invalid_<field>. The
// checks run in the contract's order (empty, then length, then NUL), so
// the same input gets the same complaint as from the reference.
func CleanText(v, field string, max int) (string, error) {
	code := collaberr.Invalid(field)
	if !utf8.ValidString(v) {
		return "", collaberr.Newf(code, "%s is not valid Unicode text; send it as UTF-8 without lone surrogates", field)
	}
	text := TrimJS(v)
	if text == "" {
		return "", collaberr.Newf(code, "%s is empty or only white space; give it a value", field)
	}
	if Length(text) > max {
		return "", collaberr.Newf(code, "%s is longer than %d characters (UTF-16 code units); shorten it", field, max)
	}
	if strings.IndexByte(text, 0) >= 0 {
		return "", collaberr.Newf(code, "%s contains a NUL character (U+0000); remove it", field)
	}
	return text, nil
}

// OptionalText is CleanText for a field that may be left out: nil, empty
// and white-space-only values all mean "absent" and yield nil.
func OptionalText(v *string, field string, max int) (*string, error) {
	if v == nil || TrimJS(*v) == "" {
		return nil, nil
	}
	text, err := CleanText(*v, field, max)
	if err != nil {
		return nil, err
	}
	return &text, nil
}
