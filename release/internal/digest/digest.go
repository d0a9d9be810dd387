// Package digest computes the file digests a release is checked by: sha256
// (checksums.txt, GitHub attestations), sha512 (npm provenance) and npm's
// Subresource Integrity string.
package digest

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// Sums holds both digests of one file.
type Sums struct {
	SHA256 [sha256.Size]byte
	SHA512 [sha512.Size]byte
	Size   int64
}

// Of digests r in one pass.
func Of(r io.Reader) (Sums, error) {
	h256, h512 := sha256.New(), sha512.New()
	n, err := io.Copy(io.MultiWriter(h256, h512), r)
	if err != nil {
		return Sums{}, err
	}
	var s Sums
	copy(s.SHA256[:], h256.Sum(nil))
	copy(s.SHA512[:], h512.Sum(nil))
	s.Size = n
	return s, nil
}

// File digests the file at path.
func File(path string) (Sums, error) {
	f, err := os.Open(path)
	if err != nil {
		return Sums{}, err
	}
	defer f.Close()
	s, err := Of(f)
	if err != nil {
		return Sums{}, fmt.Errorf("read %s: %w", path, err)
	}
	return s, nil
}

// Bytes digests b.
func Bytes(b []byte) Sums {
	s, _ := Of(bytes.NewReader(b)) // reading memory cannot fail
	return s
}

// SHA256Hex is the lowercase hex sha256.
func (s Sums) SHA256Hex() string { return hex.EncodeToString(s.SHA256[:]) }

// SHA512Hex is the lowercase hex sha512, as in npm provenance subjects.
func (s Sums) SHA512Hex() string { return hex.EncodeToString(s.SHA512[:]) }

// Integrity is npm's SRI string for the file: "sha512-" and base64 of sha512.
func (s Sums) Integrity() string {
	return "sha512-" + base64.StdEncoding.EncodeToString(s.SHA512[:])
}
