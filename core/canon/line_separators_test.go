package canon

import (
	"encoding/json"
	"testing"
)

func TestRawLineSeparatorsMatchesJSONStringify(t *testing.T) {
	tests := []struct {
		name  string
		value string
		want  string
	}{
		{"line separator", "a\u2028b", "\"a\u2028b\""},
		{"paragraph separator", "\u2029", "\"\u2029\""},
		{"escaped backslash before u2028 text", `\u2028`, `"\\u2028"`},
		{"backslash then separator", "\\\u2028", "\"\\\\\u2028\""},
		{"other escapes untouched", "\"\n\u2027", "\"\\\"\\n\u2027\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.value)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(RawLineSeparators(b)); got != tt.want {
				t.Fatalf("RawLineSeparators(%s) = %q, want %q", b, got, tt.want)
			}
		})
	}
}
