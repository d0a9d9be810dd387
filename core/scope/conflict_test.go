package scope_test

import (
	"slices"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/agenttool/collab/core/scope"
)

func TestConflictsContractRules(t *testing.T) {
	cases := []struct {
		name        string
		a, b        string
		wantOverlap bool
	}{
		{"equal", "src/app", "src/app", true},
		{"descendant", "src/app", "src/app/x.ts", true},
		{"ancestor", "src/app/x.ts", "src", true},
		{"sibling with common prefix", "src/app", "src/application", false},
		{"glob is a literal name", "z/**", "z/x", false},
		{"glob parent", "z", "z/**", true},
		{"case-insensitive", "src/Foo.ts", "src/foo.ts", true},
		{"decomposed accent equals composed", "cafe\u0301", "caf\u00e9", true},
		{"final sigma against small sigma", "\u039f\u0394\u039f\u03a3/x", "\u03bf\u03b4\u03bf\u03c2", true},
		{"dotted capital I is i + dot above, not i", "\u0130", "i", false},
		{"dotted capital I equals i + dot above", "\u0130/x", "i\u0307", true},
		{"Kelvin sign is k", "\u212A/x", "k", true},
		{"leading space matters", " src", "src", false},
		{"no normalisation of dots", "a/./b", "a/b", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := scope.Conflicts([]string{c.a}, []string{c.b})
			want := [][2]string(nil)
			if c.wantOverlap {
				want = [][2]string{{c.a, c.b}}
			}
			if !slices.Equal(got, want) {
				t.Errorf("Conflicts(%q, %q) = %q, want %q", c.a, c.b, got, want)
			}
			if back := scope.Conflicts([]string{c.b}, []string{c.a}); (len(back) > 0) != c.wantOverlap {
				t.Errorf("reverse order gives %q", back)
			}
		})
	}
}

func TestConflictsKeepLeftThenRightOrderAndOriginalStrings(t *testing.T) {
	left := []string{"b", "SRC/App", "a"}
	right := []string{"src", "a/x", "src/app/y", "B/z"}
	want := [][2]string{{"b", "B/z"}, {"SRC/App", "src"}, {"SRC/App", "src/app/y"}, {"a", "a/x"}}
	if got := scope.Conflicts(left, right); !slices.Equal(got, want) {
		t.Errorf("Conflicts = %q, want %q", got, want)
	}
	if !scope.NewSet(left).Overlaps(scope.NewSet(right)) {
		t.Error("Overlaps = false for overlapping sets")
	}
	if scope.NewSet(left).Overlaps(scope.NewSet([]string{"c", "srcx"})) {
		t.Error("Overlaps = true for disjoint sets")
	}
}

func TestConflictsMatchNode(t *testing.T) {
	var table struct {
		Cases []struct {
			Left  []string    `json:"left"`
			Right []string    `json:"right"`
			Pairs [][2]string `json:"pairs"`
		} `json:"cases"`
	}
	loadTable(t, "conflicts.json", &table)
	for _, c := range table.Cases {
		got := scope.Conflicts(c.Left, c.Right)
		if len(got) != len(c.Pairs) || (len(got) > 0 && !slices.Equal(got, c.Pairs)) {
			t.Errorf("Conflicts(%q, %q) = %q, Node gives %q", c.Left, c.Right, got, c.Pairs)
		}
	}
}

func TestKeyMatchesNode(t *testing.T) {
	var table struct {
		Cases [][2]string `json:"cases"`
	}
	loadTable(t, "keys.json", &table)
	for _, c := range table.Cases {
		if got := scope.Key(c[0]); got != c[1] {
			t.Errorf("Key(%+q) = %+q, Node gives %+q", c[0], got, c[1])
		}
	}
}

// TestNFCMatchesNode checks that the NFC tables in use agree with Node's on
// every canonical composition, for the code points both Unicode versions know.
func TestNFCMatchesNode(t *testing.T) {
	var table struct {
		Cases [][2]string `json:"cases"`
	}
	loadTable(t, "nfc.json", &table)
	skipped := 0
	for _, c := range table.Cases {
		if !assignedInGo(c[0]) {
			skipped++
			continue
		}
		if got := norm.NFC.String(c[0]); got != c[1] {
			t.Errorf("NFC(%+q) = %+q, Node gives %+q", c[0], got, c[1])
		}
	}
	t.Logf("skipped %d of %d cases with code points newer than Unicode %s", skipped, len(table.Cases), norm.Version)
}

func assignedInGo(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cn, r) {
			return false
		}
	}
	return true
}
