package transfer

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// rowDigests records a table's rows as SHA-256 digests of their exact
// values, in the order they were read, so that the target's rows can be
// compared with the source's without keeping either in memory.
type rowDigests [][sha256.Size]byte

// digestRow hashes one row's values: each value's kind and its exact
// bytes. Text and blob count as the same bytes; an integer is not equal to
// its decimal text.
func digestRow(vals []any) ([sha256.Size]byte, error) {
	var buf []byte
	for _, v := range vals {
		switch x := v.(type) {
		case nil:
			buf = append(buf, 0)
		case int64:
			buf = append(buf, 1)
			buf = binary.BigEndian.AppendUint64(buf, uint64(x))
		case float64:
			buf = append(buf, 2)
			buf = binary.BigEndian.AppendUint64(buf, math.Float64bits(x))
		case string:
			buf = append(buf, 3)
			buf = binary.BigEndian.AppendUint64(buf, uint64(len(x)))
			buf = append(buf, x...)
		case []byte:
			buf = append(buf, 3)
			buf = binary.BigEndian.AppendUint64(buf, uint64(len(x)))
			buf = append(buf, x...)
		default:
			return [sha256.Size]byte{}, fmt.Errorf("a value of unexpected type %T", v)
		}
	}
	return sha256.Sum256(buf), nil
}

// same reports whether got holds the rows of want: in the same order
// when ordered, else as the same multiset.
func (want rowDigests) same(got rowDigests, ordered bool) bool {
	if len(want) != len(got) {
		return false
	}
	if !ordered {
		want, got = slices.Clone(want), slices.Clone(got)
		cmp := func(a, b [sha256.Size]byte) int { return bytes.Compare(a[:], b[:]) }
		slices.SortFunc(want, cmp)
		slices.SortFunc(got, cmp)
	}
	return slices.Equal(want, got)
}
