package canon

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
)

func TestAppendEncodesSupportedGoTypes(t *testing.T) {
	for _, tc := range []struct {
		why  string
		v    any
		want string
	}{
		{"nil", nil, `null`},
		{"bools", []any{true, false}, `[true,false]`},
		{"int kinds", []any{int(-1), int8(2), int16(3), int32(4), int64(1 << 53), uint(5), uint8(6), uint16(7), uint32(8), uint64(9)}, `[-1,2,3,4,9007199254740992,5,6,7,8,9]`},
		{"float32 widened exactly", float32(0.1), `0.10000000149011612`},
		{"float64", 1e21, `1e+21`},
		{"non-finite", []any{math.NaN(), math.Inf(1), math.Inf(-1)}, `[null,null,null]`},
		{"json.Number rounds like JSON.parse", json.Number("12345678901234567890"), `12345678901234567000`},
		{"json.Number zero", json.Number("-0.0"), `0`},
		{"raw message re-canonicalised", json.RawMessage(` {"b" : 1, "a" : [ 1.0 ]} `), `{"a":[1],"b":1}`},
		{"string slice", []string{"b", "a"}, `["b","a"]`},
		{"object slice", []map[string]any{{"b": 1.0, "a": nil}}, `[{"a":null,"b":1}]`},
		{"string map sorted", map[string]string{"b": "1", "a": "2", "10": "x", "9": "y"}, `{"9":"y","10":"x","a":"2","b":"1"}`},
		{"nil containers", []any{[]any(nil), map[string]any(nil), []string(nil)}, `[[],{},[]]`},
		{"WTF-8 pair made of two halves", "\xed\xa0\xbd\xed\xb8\x80", "\"\U0001F600\""},
		{"lone surrogate key", map[string]any{"\xed\xa0\x80": 1.0}, `{"\ud800":1}`},
	} {
		got, err := Marshal(tc.v)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: Marshal = %s, %v; want %s", tc.why, got, err, tc.want)
		}
	}
}

func TestAppendRefusesValuesWithoutCanonicalForm(t *testing.T) {
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	for _, tc := range []struct {
		why  string
		v    any
		want error
	}{
		{"channel", make(chan int), ErrUnsupportedType},
		{"byte slice", []byte("x"), ErrUnsupportedType},
		{"struct", struct{}{}, ErrUnsupportedType},
		{"nested unsupported", map[string]any{"a": []any{1.0, struct{}{}}}, ErrUnsupportedType},
		{"invalid UTF-8 value", "\xff", ErrInvalidString},
		{"invalid UTF-8 key", map[string]any{"\xc3": 1.0}, ErrInvalidString},
		{"int64 beyond 2^53", int64(1<<53 + 1), ErrUnsafeInteger},
		{"negative int beyond 2^53", int64(-(1 << 53) - 1), ErrUnsafeInteger},
		{"uint64 beyond 2^53", uint64(1 << 60), ErrUnsafeInteger},
		{"bad json.Number", json.Number("1e"), ErrInvalidNumber},
		{"json.Number with spaces", json.Number(" 1"), ErrInvalidNumber},
		{"cycle", cyclic, ErrTooDeep},
	} {
		_, err := Marshal(tc.v)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: Marshal error = %v, want %v", tc.why, err, tc.want)
		}
	}
	var se *SyntaxError
	if _, err := Marshal(json.RawMessage(`{"a":}`)); !errors.As(err, &se) {
		t.Errorf("invalid json.RawMessage: error = %v, want a *SyntaxError", err)
	}
}

func TestAppendErrorNamesTheFailingLocation(t *testing.T) {
	_, err := Marshal(map[string]any{"a": []any{1.0, struct{}{}}})
	if want := `canon: unsupported value type: struct {} (at $["a"][1])`; err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestAppendKeepsDestinationPrefix(t *testing.T) {
	got, err := Append([]byte("prefix:"), map[string]any{"k": "v"})
	if err != nil || string(got) != `prefix:{"k":"v"}` {
		t.Errorf("Append = %s, %v", got, err)
	}
}

func TestAppendStringEscapesExactlyLikeJSONStringify(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", `""`},
		{`"\`, `"\"\\"`},
		{"\x00\x01\x07\b\t\n\v\f\r\x0e\x1b\x1f", `"\u0000\u0001\u0007\b\t\n\u000b\f\r\u000e\u001b\u001f"`},
		{"/<>&'\x7f\u0080\u2028\u2029\uFEFF\uFFFF", "\"/<>&'\x7f\u0080\u2028\u2029\uFEFF\uFFFF\""},
		{"\xed\xa0\x80", `"\ud800"`},
		{"\xed\xbf\xbfx\xed\xaf\xbf", `"\udfffx\udbff"`},
		{"\xed\xb0\x80\xed\xa0\x80", `"\udc00\ud800"`},
		{"a long run of plain text that spans several words \U0001F600 and more", "\"a long run of plain text that spans several words \U0001F600 and more\""},
		{"invalid \xff byte", "\"invalid \uFFFD byte\""},
		{"truncated \xe6\x97", "\"truncated \uFFFD\uFFFD\""},
	} {
		if got := string(AppendString(nil, tc.in)); got != tc.want {
			t.Errorf("AppendString(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
