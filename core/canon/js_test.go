package canon

import (
	"math"
	"strconv"
	"testing"
)

// Expectations produced by a JavaScript engine (testdata/jsgen/gen.mjs).

func TestAppendNumberMatchesJavaScript(t *testing.T) {
	var file struct {
		Numbers []struct {
			Bits string `json:"bits"`
			JSON string `json:"json"`
		} `json:"numbers"`
	}
	loadJSON(t, "js-numbers.json", &file)
	if len(file.Numbers) < 1000 {
		t.Fatalf("only %d numbers in testdata", len(file.Numbers))
	}
	for _, n := range file.Numbers {
		bits, err := strconv.ParseUint(n.Bits, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		f := math.Float64frombits(bits)
		if got := string(AppendNumber(nil, f)); got != n.JSON {
			t.Errorf("AppendNumber(%v) = %s, JavaScript writes %s", f, got, n.JSON)
		}
		if !IsCanonical([]byte(n.JSON)) {
			t.Errorf("IsCanonical(%s) = false for JavaScript's own output", n.JSON)
		}
	}
}

func TestCanonicalizeMatchesJavaScriptOnRandomTexts(t *testing.T) {
	var file struct {
		Cases []struct {
			Input     string `json:"input"`
			Canonical string `json:"canonical"`
		} `json:"cases"`
	}
	loadJSON(t, "js-canonical.json", &file)
	if len(file.Cases) < 100 {
		t.Fatalf("only %d cases in testdata", len(file.Cases))
	}
	for i, c := range file.Cases {
		got, err := Canonicalize([]byte(c.Input))
		if err != nil {
			t.Errorf("case %d: Canonicalize(%q): %v", i, c.Input, err)
			continue
		}
		if string(got) != c.Canonical {
			t.Errorf("case %d: Canonicalize(%q)\n got %q\nwant %q", i, c.Input, got, c.Canonical)
		}
		if !IsCanonical([]byte(c.Canonical)) {
			t.Errorf("case %d: IsCanonical(%q) = false", i, c.Canonical)
		}
		if want := c.Input == c.Canonical; IsCanonical([]byte(c.Input)) != want {
			t.Errorf("case %d: IsCanonical(%q) = %v, want %v", i, c.Input, !want, want)
		}
	}
}
