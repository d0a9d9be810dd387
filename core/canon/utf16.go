package canon

import "slices"

// LengthUTF16 returns the number of UTF-16 code units in s, which is what
// JavaScript's String.prototype.length reports for the same text. Characters
// outside the Basic Multilingual Plane count twice, WTF-8 surrogates once,
// and every byte that is not part of a valid sequence once (as U+FFFD).
func LengthUTF16(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] < 0x80 {
			i++
			n++
			continue
		}
		r, size := decodeRune(s, i, true)
		i += size
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// HasLoneSurrogate reports whether s, read as WTF-8, holds a surrogate code
// point that is not immediately followed (if high) or preceded (if low) by its
// partner. Such a string has no UTF-8 form; canonical JSON escapes it.
func HasLoneSurrogate(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != 0xED || i+2 >= len(s) || s[i+1] < 0xA0 || s[i+1] > 0xBF || !isCont(s[i+2]) {
			continue
		}
		if s[i+1] >= 0xB0 {
			return true // a low surrogate that no high surrogate claimed
		}
		if _, ok := lowSurrogateAt(s, i+3); !ok {
			return true
		}
		i += 5 // skip the pair
	}
	return false
}

// CompareUTF16 compares a and b by their UTF-16 code units, as JavaScript's
// < and > operators do on strings, and returns -1, 0 or +1. It differs from
// Go's byte order when a supplementary-plane character meets one in
// U+E000..U+FFFF: the former sorts first because its high surrogate is
// smaller. Both strings are read as WTF-8; invalid bytes count as U+FFFD.
func CompareUTF16(a, b string) int {
	return compareUTF16(a, b)
}

// compareUTF16 implements CompareUTF16 for unescaped text of either form.
func compareUTF16[T text](a, b T) int {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	if p == len(a) || p == len(b) {
		return cmpInt(len(a), len(b))
	}
	if a[p] < 0x80 && b[p] < 0x80 {
		return cmpInt(int(a[p]), int(b[p]))
	}
	// Back up to the start of the character holding the first difference so
	// that both readers begin on the same code-unit boundary.
	for k := 0; k < 3 && p > 0 && (isCont(a[p]) || isCont(b[p])); k++ {
		p--
	}
	ra := unitReader[T]{s: a, i: p}
	rb := unitReader[T]{s: b, i: p}
	return compareUnits(&ra, &rb)
}

// SortStrings sorts s in place in ascending UTF-16 code-unit order, the
// order of JavaScript's default Array.prototype.sort.
func SortStrings(s []string) {
	slices.SortFunc(s, CompareUTF16)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compareUnits compares the remaining code units of two readers.
func compareUnits[T text](a, b *unitReader[T]) int {
	for {
		ua, okA := a.next()
		ub, okB := b.next()
		switch {
		case !okA || !okB:
			return cmpInt(boolInt(okA), boolInt(okB))
		case ua != ub:
			return cmpInt(int(ua), int(ub))
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// unitReader yields the UTF-16 code units of WTF-8 text one at a time. With
// escaped set, the text is the body of a JSON string literal that has already
// been validated, and backslash escapes are decoded.
type unitReader[T text] struct {
	s       T
	i       int
	escaped bool
	pending uint16 // low surrogate still owed for a supplementary character
}

// next returns the next code unit, or false at the end of the text.
func (r *unitReader[T]) next() (uint16, bool) {
	if r.pending != 0 {
		u := r.pending
		r.pending = 0
		return u, true
	}
	if r.i >= len(r.s) {
		return 0, false
	}
	b := r.s[r.i]
	switch {
	case b == '\\' && r.escaped:
		return r.escape(), true
	case b < 0x80:
		r.i++
		return uint16(b), true
	}
	c, size := decodeRune(r.s, r.i, true)
	r.i += size
	switch {
	case c == badRune:
		return 0xFFFD, true
	case c >= 0x10000:
		c -= 0x10000
		r.pending = uint16(0xDC00 + c&0x3FF)
		return uint16(0xD800 + c>>10), true
	}
	return uint16(c), true
}

// escape decodes the escape sequence at r.i (which holds the backslash).
func (r *unitReader[T]) escape() uint16 {
	c := r.s[r.i+1]
	if c == 'u' {
		u := hex4(r.s, r.i+2)
		r.i += 6
		return uint16(u)
	}
	r.i += 2
	return uint16(unescapeShort(c))
}
