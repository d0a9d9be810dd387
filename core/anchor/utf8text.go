package anchor

import "unicode/utf8"

// ledgerText returns the ledger bytes as the text the reference parses: it
// decodes the file with Buffer.toString("utf8"), which replaces each
// maximal ill-formed subsequence with one U+FFFD (the WHATWG and Unicode
// "maximal subpart" rule). So "\xE2\x82A" reads as U+FFFD then "A", and
// the bytes of a UTF-8-encoded surrogate (ED A0 80) as three U+FFFD: only
// a \u escape can put an unpaired surrogate into a ledger string.
func ledgerText(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			out = append(out, b[i])
			i++
			continue
		}
		end := wellFormedEnd(b, i)
		if end < 0 {
			out = append(out, "\uFFFD"...)
			i = maximalSubpartEnd(b, i)
			continue
		}
		out = append(out, b[i:end]...)
		i = end
	}
	return out
}

// sequenceRule is, for a lead byte, the length of the sequence it starts
// and the range its second byte must fall in (Unicode Table 3-7); n is 0
// for a byte that cannot start a sequence.
func sequenceRule(lead byte) (n int, lo, hi byte) {
	switch {
	case lead >= 0xC2 && lead <= 0xDF:
		return 2, 0x80, 0xBF
	case lead == 0xE0:
		return 3, 0xA0, 0xBF
	case lead == 0xED:
		return 3, 0x80, 0x9F
	case lead >= 0xE1 && lead <= 0xEF:
		return 3, 0x80, 0xBF
	case lead == 0xF0:
		return 4, 0x90, 0xBF
	case lead >= 0xF1 && lead <= 0xF3:
		return 4, 0x80, 0xBF
	case lead == 0xF4:
		return 4, 0x80, 0x8F
	}
	return 0, 0, 0
}

// wellFormedEnd returns the end of the well-formed sequence at b[i], or -1.
func wellFormedEnd(b []byte, i int) int {
	if end := maximalSubpartEnd(b, i); end-i == sequenceLength(b[i]) {
		return end
	}
	return -1
}

func sequenceLength(lead byte) int {
	n, _, _ := sequenceRule(lead)
	return n
}

// maximalSubpartEnd returns the end of the longest prefix of a valid
// sequence starting at b[i] (at least one byte).
func maximalSubpartEnd(b []byte, i int) int {
	n, lo, hi := sequenceRule(b[i])
	j := i + 1
	for k := 1; k < n && j < len(b); k++ {
		if b[j] < lo || b[j] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
		j++
	}
	return j
}
