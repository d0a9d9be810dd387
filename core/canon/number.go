package canon

import (
	"math"
	"strconv"
)

// maxSafeInteger is 2^53, the largest magnitude below which every integer
// is exactly representable as a float64.
const maxSafeInteger = 1 << 53

// AppendNumber appends f the way JSON.stringify writes a JavaScript number:
// the shortest decimal that reads back as f, in plain notation when
// 1e-6 <= |f| < 1e21 and otherwise as d[.ddd]e±n (for example 1e+21, 1e-7,
// 5e-324). Negative zero is written as 0, and NaN and ±Inf as null.
func AppendNumber(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return append(dst, "null"...)
	case f == 0:
		return append(dst, '0')
	case f == math.Trunc(f) && math.Abs(f) <= maxSafeInteger:
		return strconv.AppendInt(dst, int64(f), 10)
	case f < 0:
		dst = append(dst, '-')
		f = -f
	}
	var buf [32]byte
	sci := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	digits, exp := splitScientific(sci, buf[:0])
	return appendECMA(dst, digits, exp)
}

// splitScientific takes Go's shortest "d.ddde±xx" output for a positive
// number and returns its significant digits and the exponent n such that the
// value is 0.digits × 10^n. The digits are compacted into scratch, which may
// share memory with sci: each byte moves to a lower or equal index.
func splitScientific(sci, scratch []byte) ([]byte, int) {
	e := len(sci) - 1
	for sci[e] != 'e' {
		e--
	}
	exp := 0
	for _, c := range sci[e+2:] {
		exp = exp*10 + int(c-'0')
	}
	if sci[e+1] == '-' {
		exp = -exp
	}
	digits := append(scratch, sci[0])
	if e > 1 {
		digits = append(digits, sci[2:e]...) // skip the '.'
	}
	return digits, exp + 1
}

// appendECMA lays out the digits following ECMAScript Number::toString for
// a positive value 0.digits × 10^n.
func appendECMA(dst, digits []byte, n int) []byte {
	k := len(digits)
	switch {
	case k <= n && n <= 21:
		dst = append(dst, digits...)
		for range n - k {
			dst = append(dst, '0')
		}
		return dst
	case 0 < n && n <= 21:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		return append(dst, digits[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for range -n {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits[0])
	if k > 1 {
		dst = append(dst, '.')
		dst = append(dst, digits[1:]...)
	}
	dst = append(dst, 'e')
	if n-1 >= 0 {
		dst = append(dst, '+')
	}
	return strconv.AppendInt(dst, int64(n-1), 10)
}
