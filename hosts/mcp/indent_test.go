package mcp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// indentCases are JSON texts whose layout indentJSON must give exactly as
// json.Indent does: nesting, empty and one-element containers, strings
// holding brackets, commas, colons, escaped quotes and backslashes, and
// whitespace between tokens (dropped).
var indentCases = []string{
	`{}`, `[]`, `1`, `"s"`, `null`, `{"a":1}`, `[1]`, `[[]]`, `[{}]`, `{"a":{}}`, `{"a":[]}`,
	`{"a":[1,2,{"b":null,"c":[true,false]}],"d":"x"}`,
	`{"s":"{[,:]}","t":"\"","u":"\\","v":"\\\"","w":"a\\\\"}`,
	`[ 1 , { "a" : [ ] } ,` + "\n\t\r" + `"x" ]`,
	`{"deep":[[[[[[{"e":[[],{},[{}]]}]]]]]]}`,
	`{"unicode":"日本 \u2028 🚀","esc":"\u003c\n"}`,
	`-1.5e+10`, "0e0 ", " \n{} \t\n", "[1] ",
}

func TestIndentJSONLaysOutAsJSONIndent(t *testing.T) {
	large, err := os.ReadFile(filepath.Join("testdata", "status-30-claims.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range append(indentCases, string(large)) {
		var want, got bytes.Buffer
		if err := json.Indent(&want, []byte(c), "", "  "); err != nil {
			t.Fatalf("case %.60q is not JSON: %v", c, err)
		}
		indentJSON(&got, []byte(c))
		if got.String() != want.String() {
			t.Errorf("indent %.60q:\n got  %q\n want %q", c, got.String(), want.String())
		}
	}
}

// FuzzIndentJSON holds indentJSON to json.Indent on every valid JSON text.
func FuzzIndentJSON(f *testing.F) {
	for _, c := range indentCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var want bytes.Buffer
		if json.Indent(&want, src, "", "  ") != nil {
			return
		}
		var got bytes.Buffer
		indentJSON(&got, src)
		if got.String() != want.String() {
			t.Fatalf("indent %q:\n got  %q\n want %q", src, got.String(), want.String())
		}
	})
}
