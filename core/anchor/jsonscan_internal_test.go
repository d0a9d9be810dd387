package anchor

import (
	"encoding/json"
	"strings"
	"testing"
)

// scannerSeeds are JSON texts on both sides of the grammar's edges.
var scannerSeeds = []string{
	`{}`, `[]`, ` {"a" : [1, -0.5e+3, true, false, null, "x\u00e9\n"]} `, `{"a":1,}`, `[1,]`, `[01]`, `-`, `1.`, `.5`,
	`1e`, `"\x"`, `"\u12"`, "\"a\tb\"", `{"a" 1}`, `{1:2}`, `[1 2]`, `"unterminated`, `tru`, `nul`, `{"a":{"b":[{}]}}`,
	`[[[[]]]]`, `[[[]]`, `{"a":[}`, `"\ud800"`, "\ufeff{}", `1 2`, `[-]`, `[1e+]`, `{"":""}`, `{"a":1,"a":2}`,
}

// FuzzScannerAgreesWithEncodingJSON: on text nested less deeply than
// encoding/json's limit, scanValue accepts exactly what json.Valid does
// (both follow RFC 8259, which is JSON.parse's grammar).
func FuzzScannerAgreesWithEncodingJSON(f *testing.F) {
	for _, s := range scannerSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		text := ledgerText(data)
		if strings.Count(string(text), "[")+strings.Count(string(text), "{") > 5000 {
			return
		}
		_, ours := parseDocument(text)
		if want := json.Valid(text); ours != want {
			t.Fatalf("parseDocument(%q) = %v, json.Valid = %v", text, ours, want)
		}
	})
}

// TestScannerHasNoNestingLimit: JSON.parse in the reference reads a
// value nested two million levels deep; so must the ledger scanner,
// and it must still refuse the same text with one bracket left open.
func TestScannerHasNoNestingLimit(t *testing.T) {
	const n = 2_000_000
	for _, open := range []string{"[", `{"k":`} {
		closing := map[string]string{"[": "]", `{"k":`: "}"}[open]
		deep := strings.Repeat(open, n) + "0" + strings.Repeat(closing, n)
		if open == "[" {
			deep = strings.Repeat(open, n) + strings.Repeat(closing, n)
		}
		if _, ok := parseDocument([]byte(deep)); !ok {
			t.Fatalf("%d levels of %s were refused", n, open)
		}
		if _, ok := parseDocument([]byte(deep[:len(deep)-1])); ok {
			t.Fatalf("%d levels of %s with one left open were accepted", n, open)
		}
	}
}
