package canon

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"
)

// FuzzCanonical checks the invariants that tie Parse, Append, Canonicalize
// and IsCanonical together, and compares acceptance and decoded values with
// encoding/json where the two are meant to agree. Seeds: the vector inputs,
// the stored event payloads and testdata/fuzz/FuzzCanonical.
func FuzzCanonical(f *testing.F) {
	for _, v := range loadVectors(f) {
		f.Add([]byte(v.InputJSON))
		f.Add([]byte(v.Canonical))
	}
	for _, e := range loadEvents(f) {
		f.Add([]byte(e.Row.PayloadJSON))
	}
	f.Fuzz(func(t *testing.T, x []byte) {
		parsed, err := Parse(x)
		if err != nil {
			checkRejected(t, x)
			return
		}
		c, err := Canonicalize(x)
		if err != nil {
			t.Fatalf("Parse accepted %q but Canonicalize failed: %v", x, err)
		}
		checkCanonicalOutput(t, x, parsed, c)
		if IsCanonical(x) && !bytes.Equal(c, x) {
			t.Fatalf("IsCanonical(%q) but its canonical form is %q", x, c)
		}
		checkAgainstEncodingJSON(t, x, c)
	})
}

func checkRejected(t *testing.T, x []byte) {
	if IsCanonical(x) {
		t.Fatalf("IsCanonical accepted %q, which Parse rejects", x)
	}
	if _, err := Canonicalize(x); err == nil {
		t.Fatalf("Canonicalize accepted %q, which Parse rejects", x)
	}
	if utf8.Valid(x) && json.Valid(x) {
		t.Fatalf("encoding/json accepts %q, which Parse rejects", x)
	}
}

func checkCanonicalOutput(t *testing.T, x []byte, parsed any, c []byte) {
	reparsed, err := Parse(c)
	if err != nil {
		t.Fatalf("canonical form %q of %q does not parse: %v", c, x, err)
	}
	if !reflect.DeepEqual(reparsed, normalizeNonFinite(parsed)) {
		t.Fatalf("canonical form %q of %q parses to a different value", c, x)
	}
	if !IsCanonical(c) {
		t.Fatalf("IsCanonical(%q) = false for a canonical form", c)
	}
	again, err := Canonicalize(c)
	if err != nil || !bytes.Equal(again, c) {
		t.Fatalf("canonicalising %q again gave %q, %v", c, again, err)
	}
}

// checkAgainstEncodingJSON: encoding/json must accept what Parse accepts and
// decode the input and its canonical form alike. It differs from JSON.parse
// on lone surrogates (it substitutes U+FFFD) and refuses overflowing numbers,
// so those inputs are skipped.
func checkAgainstEncodingJSON(t *testing.T, x, c []byte) {
	if !json.Valid(x) {
		t.Fatalf("Parse accepts %q, which encoding/json rejects", x)
	}
	if ContainsLoneSurrogateEscape(x) {
		return
	}
	var fromX, fromC any
	if err := json.Unmarshal(x, &fromX); err != nil {
		return // a number out of float64 range
	}
	if err := json.Unmarshal(c, &fromC); err != nil {
		t.Fatalf("encoding/json cannot decode canonical form %q: %v", c, err)
	}
	if !reflect.DeepEqual(fromX, fromC) {
		t.Fatalf("encoding/json decodes %q and its canonical form %q differently", x, c)
	}
}
