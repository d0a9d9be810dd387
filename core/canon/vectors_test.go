package canon

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// vector is one entry of testdata/canonical-json.json (copied from the
// shared compatibility fixtures).
type vector struct {
	Name                  string     `json:"name"`
	InputJSON             string     `json:"input_json"`
	InputTyped            typedValue `json:"input_typed"`
	ContainsLoneSurrogate bool       `json:"contains_lone_surrogate"`
	Canonical             string     `json:"canonical"`
	CanonicalUTF8Hex      string     `json:"canonical_utf8_hex"`
	SHA256                string     `json:"sha256"`
}

// typedValue is the exact value tree of a vector: strings as UTF-16 code
// units, numbers as float64 bits, objects as ordered entries.
type typedValue struct {
	T           string          `json:"t"`
	V           bool            `json:"v"`
	UTF16       []uint16        `json:"utf16"`
	Float64Bits string          `json:"float64_bits"`
	JS          string          `json:"js"`
	Items       []typedValue    `json:"items"`
	Entries     [][2]typedValue `json:"entries"`
}

func loadJSON(t testing.TB, name string, v any) {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("decoding %s: %v", name, err)
	}
}

func loadVectors(t testing.TB) []vector {
	var file struct {
		Vectors []vector `json:"vectors"`
	}
	loadJSON(t, "canonical-json.json", &file)
	if len(file.Vectors) != 34 {
		t.Fatalf("expected 34 vectors, found %d", len(file.Vectors))
	}
	return file.Vectors
}

// wtf8FromUTF16 builds the Go string this package uses for a JavaScript
// string: valid pairs become one character, lone surrogates their
// three-byte WTF-8 form. It is written independently of the package code.
func wtf8FromUTF16(units []uint16) string {
	var out []byte
	for i := 0; i < len(units); i++ {
		u := rune(units[i])
		if utf16.IsSurrogate(u) && i+1 < len(units) {
			if r := utf16.DecodeRune(u, rune(units[i+1])); r != utf8.RuneError {
				out = utf8.AppendRune(out, r)
				i++
				continue
			}
		}
		if utf16.IsSurrogate(u) {
			out = append(out, 0xE0|byte(u>>12), 0x80|byte(u>>6&0x3F), 0x80|byte(u&0x3F))
			continue
		}
		out = utf8.AppendRune(out, u)
	}
	return string(out)
}

func (tv typedValue) build(t *testing.T) any {
	t.Helper()
	switch tv.T {
	case "null":
		return nil
	case "bool":
		return tv.V
	case "string":
		return wtf8FromUTF16(tv.UTF16)
	case "number":
		bits, err := strconv.ParseUint(tv.Float64Bits, 16, 64)
		if err != nil {
			t.Fatalf("float64_bits %q: %v", tv.Float64Bits, err)
		}
		return math.Float64frombits(bits)
	case "array":
		items := []any{}
		for _, item := range tv.Items {
			items = append(items, item.build(t))
		}
		return items
	case "object":
		members := map[string]any{}
		for _, e := range tv.Entries {
			members[e[0].build(t).(string)] = e[1].build(t)
		}
		return members
	}
	t.Fatalf("unknown typed value kind %q", tv.T)
	return nil
}

func checkCanonicalBytes(t *testing.T, got []byte, v vector) {
	t.Helper()
	if string(got) != v.Canonical {
		t.Errorf("canonical:\n got %q\nwant %q", got, v.Canonical)
	}
	if h := hex.EncodeToString(got); h != v.CanonicalUTF8Hex {
		t.Errorf("utf8 hex:\n got %s\nwant %s", h, v.CanonicalUTF8Hex)
	}
	sum := sha256.Sum256(got)
	if h := hex.EncodeToString(sum[:]); h != v.SHA256 {
		t.Errorf("sha256: got %s want %s", h, v.SHA256)
	}
}

func TestVectorsFromInputJSON(t *testing.T) {
	for _, v := range loadVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			parsed, err := Parse([]byte(v.InputJSON))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got, err := Marshal(parsed)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			checkCanonicalBytes(t, got, v)
			viaCanonicalize, err := Canonicalize([]byte(v.InputJSON))
			if err != nil || string(viaCanonicalize) != v.Canonical {
				t.Errorf("Canonicalize = %q, %v; want %q", viaCanonicalize, err, v.Canonical)
			}
		})
	}
}

func TestVectorsFromInputTyped(t *testing.T) {
	for _, v := range loadVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			got, err := Marshal(v.InputTyped.build(t))
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			checkCanonicalBytes(t, got, v)
		})
	}
}

// TestParseMatchesInputTyped proves Parse yields exactly the tree JSON.parse
// produced, bit for bit, including WTF-8 lone surrogates and -0.
func TestParseMatchesInputTyped(t *testing.T) {
	for _, v := range loadVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			parsed, err := Parse([]byte(v.InputJSON))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := exactDiff(parsed, v.InputTyped.build(t)); diff != "" {
				t.Errorf("parsed value differs: %s", diff)
			}
			if got := HasLoneSurrogate(string(mustMarshalKeysAndStrings(parsed))); got != v.ContainsLoneSurrogate {
				t.Errorf("HasLoneSurrogate over all strings = %v, want %v", got, v.ContainsLoneSurrogate)
			}
			if got := ContainsLoneSurrogateEscape([]byte(v.InputJSON)); got != v.ContainsLoneSurrogate {
				t.Errorf("ContainsLoneSurrogateEscape = %v, want %v", got, v.ContainsLoneSurrogate)
			}
		})
	}
}

func TestVectorNumbersMatchJSString(t *testing.T) {
	for _, v := range loadVectors(t) {
		forEachNumber(v.InputTyped, func(n typedValue) {
			bits, _ := strconv.ParseUint(n.Float64Bits, 16, 64)
			f := math.Float64frombits(bits)
			want := n.JS
			switch {
			case f == 0:
				want = "0" // String(-0) is "0"; the fixture spells the sign out
			case math.IsInf(f, 0):
				want = "null" // JSON.stringify writes null where String gives Infinity
			}
			if got := string(AppendNumber(nil, f)); got != want {
				t.Errorf("%s: AppendNumber(%v) = %s, want %s", v.Name, f, got, want)
			}
		})
	}
}

func forEachNumber(tv typedValue, fn func(typedValue)) {
	if tv.T == "number" {
		fn(tv)
	}
	for _, item := range tv.Items {
		forEachNumber(item, fn)
	}
	for _, e := range tv.Entries {
		forEachNumber(e[1], fn)
	}
}
