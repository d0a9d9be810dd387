package normalize

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"unicode"
)

// generatorMeta records which engine produced a ground-truth table.
type generatorMeta struct {
	Node    string `json:"node"`
	Unicode string `json:"unicode"`
}

// loadTable decodes testdata/name into v.
func loadTable(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("read table: %v", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
}

// knownToGo reports whether every code point of s is assigned in the
// Unicode version of Go's tables. The tables come from a newer Unicode
// version (Node's ICU), and characters Go does not know yet have no case
// mapping here; they are skipped and counted, not silently passed.
func knownToGo(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cn, r) {
			return false
		}
	}
	return true
}

// inRanges reports whether r lies in one of the closed ranges, which are
// sorted and disjoint.
func inRanges(r rune, ranges [][2]rune) bool {
	i := sort.Search(len(ranges), func(i int) bool { return ranges[i][1] >= r })
	return i < len(ranges) && ranges[i][0] <= r
}

// eachCodePoint calls f for every Unicode scalar value.
func eachCodePoint(f func(r rune)) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		f(r)
	}
}
