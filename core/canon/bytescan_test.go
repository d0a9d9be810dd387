package canon

import (
	"bytes"
	"testing"
)

// plainEndReference is the obvious byte-at-a-time definition.
func plainEndReference(d []byte, i int) int {
	for ; i < len(d); i++ {
		if !plainByte(d[i]) {
			return i
		}
	}
	return len(d)
}

// TestPlainEndFindsFirstSpecialByte checks the word-at-a-time scanner
// against the byte loop for every byte value at every offset, alone and
// followed by a second byte value (to exercise borrows between lanes).
func TestPlainEndFindsFirstSpecialByte(t *testing.T) {
	const size = 40
	for first := range 256 {
		for _, second := range []int{-1, 0x00, 0x1F, 0x20, 0x21, 0x22, 0x5C, 0x7F, 0x80, 0xFF} {
			for pos := range size {
				d := bytes.Repeat([]byte{'a'}, size)
				d[pos] = byte(first)
				if second >= 0 && pos+1 < size {
					d[pos+1] = byte(second)
				}
				for start := 0; start <= pos; start += 3 {
					want := plainEndReference(d, start)
					if got := plainEnd(d, start); got != want {
						t.Fatalf("plainEnd(%x, %d) = %d, want %d", d, start, got, want)
					}
					if got := plainEndString(string(d), start); got != want {
						t.Fatalf("plainEndString(%x, %d) = %d, want %d", d, start, got, want)
					}
				}
			}
		}
	}
}
