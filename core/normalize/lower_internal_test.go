package normalize

import (
	"testing"
	"unicode"
)

func TestLowerJSMatchesNodeForEveryCodePoint(t *testing.T) {
	var table struct {
		Meta  generatorMeta `json:"meta"`
		Lower [][]rune      `json:"lower"`
	}
	loadTable(t, "js_lower.json", &table)
	want := make(map[rune]string, len(table.Lower))
	for _, row := range table.Lower {
		want[row[0]] = string(row[1:])
	}
	skipped := 0
	eachCodePoint(func(r rune) {
		in := string(r)
		expect, changed := want[r]
		if !changed {
			expect = in
		}
		if !knownToGo(in) || !knownToGo(expect) {
			if changed {
				skipped++
			}
			return
		}
		if got := LowerJS(in); got != expect {
			t.Errorf("LowerJS(%U) = %+q, Node %s gives %+q", r, got, table.Meta.Node, expect)
		}
	})
	t.Logf("skipped %d mappings of code points Go's Unicode %s tables do not know yet (Node has Unicode %s)", skipped, unicode.Version, table.Meta.Unicode)
}

func TestLowerJSMatchesNodeOnStringsAroundSigma(t *testing.T) {
	var table struct {
		Cases [][2]string `json:"cases"`
	}
	loadTable(t, "js_lower_strings.json", &table)
	for _, c := range table.Cases {
		if got := LowerJS(c[0]); got != c[1] {
			t.Errorf("LowerJS(%+q) = %+q, want %+q", c[0], got, c[1])
		}
	}
}

func TestFinalSigmaClassesMatchNode(t *testing.T) {
	var table struct {
		Cased     [][2]rune `json:"cased"`
		Ignorable [][2]rune `json:"ignorable"`
	}
	loadTable(t, "js_sigma_classes.json", &table)
	// Code points assigned in both versions whose General_Category changed
	// after Unicode 15 (Go's tables) and up to Node's Unicode version.
	changedSince15 := map[rune]string{
		0x0295:  "ʕ moved from Ll to Lo in Unicode 16, so it is no longer cased",
		0x1171E: "AHOM CONSONANT SIGN MEDIAL RA moved from Mn to Mc in Unicode 16",
	}
	eachCodePoint(func(r rune) {
		if _, changed := changedSince15[r]; changed || !knownToGo(string(r)) {
			return
		}
		wantIgnorable := inRanges(r, table.Ignorable)
		wantCased := inRanges(r, table.Cased)
		if got := isCaseIgnorable(r); got != wantIgnorable {
			t.Errorf("isCaseIgnorable(%U) = %v, Node skips it: %v", r, got, wantIgnorable)
		}
		if got := isCased(r) && !isCaseIgnorable(r); got != wantCased {
			t.Errorf("cased-and-not-ignorable(%U) = %v, Node: %v", r, got, wantCased)
		}
	})
}
