package canon

import (
	"slices"
	"strings"
)

// maxArrayIndex is the largest array index a JavaScript object enumerates
// ahead of its other keys (2^32 - 2).
const maxArrayIndex = "4294967294"

// isArrayIndex reports whether key is the canonical decimal form of an
// integer from 0 to 2^32-2, the keys a JavaScript object lists first.
func isArrayIndex[T text](key T) bool {
	n := len(key)
	if n == 0 || n > len(maxArrayIndex) || (key[0] == '0' && n > 1) {
		return false
	}
	for i := range n {
		if !isDigit(key[i]) {
			return false
		}
	}
	return n < len(maxArrayIndex) || string(key) <= maxArrayIndex
}

// compareKeys orders object keys as JSON.stringify emits them after the
// reference sorts them: array-index keys first by numeric value, then all
// other keys by UTF-16 code units.
func compareKeys(a, b string) int {
	ia, ib := isArrayIndex(a), isArrayIndex(b)
	switch {
	case ia && ib:
		if len(a) != len(b) {
			return cmpInt(len(a), len(b))
		}
		return strings.Compare(a, b) // same length and no leading zeros
	case ia:
		return -1
	case ib:
		return 1
	}
	return CompareUTF16(a, b)
}

// sortedKeys appends the keys of m to buf and returns them in canonical
// member order.
func sortedKeys[V any](buf []string, m map[string]V) []string {
	keys := buf
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKeys)
	return keys
}
