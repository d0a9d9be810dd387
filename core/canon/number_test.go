package canon

import (
	"math"
	"strconv"
	"testing"
)

func TestAppendNumberUsesECMAScriptLayout(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-1, "-1"},
		{maxSafeInteger, "9007199254740992"}, {maxSafeInteger + 2, "9007199254740994"},
		{1e20, "100000000000000000000"}, {123456789012345680000, "123456789012345680000"},
		{1e21, "1e+21"}, {-1.5e21, "-1.5e+21"}, {1e100, "1e+100"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{0.1, "0.1"}, {0.30000000000000004, "0.30000000000000004"}, {-2.25, "-2.25"}, {123.456, "123.456"},
		{1e-6, "0.000001"}, {1.5e-6, "0.0000015"}, {1e-7, "1e-7"}, {-1.2e-7, "-1.2e-7"},
		{5e-324, "5e-324"}, {2.2250738585072014e-308, "2.2250738585072014e-308"},
		{math.NaN(), "null"}, {math.Inf(1), "null"}, {math.Inf(-1), "null"},
	} {
		if got := string(AppendNumber(nil, tc.f)); got != tc.want {
			t.Errorf("AppendNumber(%v) = %s, want %s", tc.f, got, tc.want)
		}
	}
}

// checkNumberRoundTrip asserts the property every ECMAScript rendering has:
// reading it back yields the same float64 (with -0 written as 0).
func checkNumberRoundTrip(t *testing.T, f float64) {
	t.Helper()
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return
	}
	text := AppendNumber(nil, f)
	back, err := strconv.ParseFloat(string(text), 64)
	if err != nil || (back != f) || (f == 0 && math.Signbit(back)) {
		t.Fatalf("AppendNumber(%v) = %s reads back as %v, %v", f, text, back, err)
	}
	if !IsCanonical(text) {
		t.Fatalf("IsCanonical(%s) = false for AppendNumber's own output", text)
	}
}

func TestAppendNumberRoundTripsAcrossExponents(t *testing.T) {
	for e := -1074; e <= 1023; e++ {
		p := math.Ldexp(1, e)
		for _, f := range []float64{p, -p, math.Nextafter(p, 0), math.Nextafter(p, math.Inf(1)), p * 3 / 7} {
			checkNumberRoundTrip(t, f)
		}
	}
	for e := -325; e <= 309; e++ {
		p, _ := strconv.ParseFloat("1e"+strconv.Itoa(e), 64)
		checkNumberRoundTrip(t, p)
		checkNumberRoundTrip(t, math.Nextafter(p, 0))
	}
}

func FuzzAppendNumber(f *testing.F) {
	for _, seed := range []float64{0, 1, 0.1, 1e21, 1e-7, 5e-324, math.MaxFloat64, 123456789012345680000} {
		f.Add(math.Float64bits(seed))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		checkNumberRoundTrip(t, math.Float64frombits(bits))
	})
}
