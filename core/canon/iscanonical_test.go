package canon

import "testing"

func TestIsCanonicalAcceptsEveryVectorOutput(t *testing.T) {
	for _, v := range loadVectors(t) {
		if !IsCanonical([]byte(v.Canonical)) {
			t.Errorf("%s: IsCanonical(%q) = false", v.Name, v.Canonical)
		}
	}
}

func TestIsCanonicalAcceptsEdgeForms(t *testing.T) {
	for _, text := range []string{
		`0`, `-1`, `123456789012345`, `1234567890123456`, `12345678901234567000`, `1e+21`,
		`-1.5e-7`, `0.000001`, `5e-324`, `1.7976931348623157e+308`, `0.30000000000000004`,
		`""`, `"\u0000\u001f\b\t\n\f\r\"\\"`, `"\ud800"`, `"\udc00\ud800"`, `"x\udbffy"`,
		"\"\u007f\u0080\u2028\u2029\U0001F600\uFFFF\"", `"</script>&"`, `"/"`,
		`{"0":1,"1":2,"10":3,"4294967294":4," 1":5,"-1":6,"01":7,"4294967295":8,"a":9}`,
		"{\"z\":1,\"\U0001D4B3\":2,\"\uE000\":3,\"\uFF21\":4}",
		`{"a":1,"a\u0000":2,"a\u0001":3,"a\b":4,"a\t":5,"a ":6,"a\"":7,"a\\":8,"ab":9}`,
		`{"\ud800":1,"\ud800\udbff":2}`,
		`[[],{},[{}],{"a":[]}]`, `null`, `true`, `false`,
	} {
		if !IsCanonical([]byte(text)) {
			t.Errorf("IsCanonical(%s) = false, want true", text)
		}
		if got, err := Canonicalize([]byte(text)); err != nil || string(got) != text {
			t.Errorf("Canonicalize(%s) = %s, %v; canonical text must map to itself", text, got, err)
		}
	}
}

func TestIsCanonicalRejectsNonCanonicalText(t *testing.T) {
	for _, tc := range []struct{ why, text string }{
		{"empty input", ``},
		{"leading space", ` {}`},
		{"trailing newline", "{}\n"},
		{"space after colon", `{"a": 1}`},
		{"space after comma", `[1, 2]`},
		{"keys out of order", `{"b":1,"a":2}`},
		{"duplicate key", `{"a":1,"a":1}`},
		{"byte order instead of UTF-16 order", "{\"\uFF21\":1,\"\U0001D4B3\":2}"},
		{"index key after other key", `{"a":1,"0":2}`},
		{"index keys in string order", `{"10":1,"9":2}`},
		{"non-index key before index key", `{"01":1,"1":2}`},
		{"escaped slash", `"\/"`},
		{"escaped printable", `"\u0041"`},
		{"uppercase hex escape", `"\u001F"`},
		{"uppercase surrogate escape", `"\uD800"`},
		{"long form of a short escape", `"\u000a"`},
		{"escaped DEL", `"\u007f"`},
		{"escaped line separator", `"\u2028"`},
		{"escaped pair", `"\ud83d\ude00"`},
		{"escaped pair with uppercase low", `"\ud83d\uDE00"`},
		{"raw control", "\"a\tb\""},
		{"invalid UTF-8", "\"\xff\""},
		{"raw surrogate bytes", "\"\xed\xa0\x80\""},
		{"overlong UTF-8", "\"\xc0\xaf\""},
		{"unterminated string", `"abc`},
		{"plus sign", `+1`},
		{"negative zero", `-0`},
		{"negative zero with fraction", `-0.0`},
		{"trailing fraction zero", `1.0`},
		{"uppercase exponent", `1E+21`},
		{"exponent without sign", `1e21`},
		{"exponent for small integer", `1e2`},
		{"plain 1e21", `1000000000000000000000`},
		{"too many digits", `12345678901234567890`},
		{"plain 1e-7", `0.0000001`},
		{"overflowing number", `2e308`},
		{"underflowing number", `1e-400`},
		{"leading zero", `01`},
		{"missing fraction digits", `1.`},
		{"whitespace inside array", `[ ]`},
		{"trailing comma", `[1,]`},
		{"bare word", `nul`},
		{"two values", `1 2`},
		{"unclosed object", `{"a":1`},
		{"non-string key", `{1:2}`},
	} {
		if IsCanonical([]byte(tc.text)) {
			t.Errorf("%s: IsCanonical(%q) = true, want false", tc.why, tc.text)
		}
	}
}

// TestIsCanonicalAgreesWithCanonicalizeOnVectorInputs checks the one-pass
// checker against the slow path on every vector input.
func TestIsCanonicalAgreesWithCanonicalizeOnVectorInputs(t *testing.T) {
	for _, v := range loadVectors(t) {
		want := v.InputJSON == v.Canonical
		if got := IsCanonical([]byte(v.InputJSON)); got != want {
			t.Errorf("%s: IsCanonical(input) = %v, want %v", v.Name, got, want)
		}
	}
}

func TestIsCanonicalDoesNotAllocate(t *testing.T) {
	payloads := [][]byte{
		[]byte(`{"a":[1,2.5,-3e-7,12345678901234567000,"x\u0001\ud800"],"b":{"c":null,"d":true},"é":"日本"}`),
		[]byte(`[0.1,0.30000000000000004,1.7976931348623157e+308,5e-324]`),
	}
	for _, e := range loadEvents(t) {
		payloads = append(payloads, []byte(e.HashBodyCanonical))
	}
	allocs := testing.AllocsPerRun(20, func() {
		for _, p := range payloads {
			if !IsCanonical(p) {
				t.Fatalf("IsCanonical(%s) = false", p)
			}
			if _, err := Canonicalize(p); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("IsCanonical/Canonicalize fast path allocated %v times per run", allocs)
	}
}
