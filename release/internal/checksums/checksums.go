// Package checksums reads and writes checksums.txt in the format GoReleaser
// and sha256sum use: "<sha256 hex>  <file name>" per line.
package checksums

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
)

// File is checksums.txt: file name to lowercase hex sha256.
type File map[string]string

// Parse reads checksums.txt, refusing malformed lines and duplicate names.
func Parse(data []byte) (File, error) {
	out := File{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" {
			continue
		}
		sum, name, ok := strings.Cut(line, "  ")
		if !ok || len(sum) != 64 || name == "" || strings.ContainsAny(name, "/\\") {
			return nil, fmt.Errorf("checksums.txt line %d: want \"<sha256>  <name>\", got %q", n, line)
		}
		if _, err := hex.DecodeString(sum); err != nil || strings.ToLower(sum) != sum {
			return nil, fmt.Errorf("checksums.txt line %d: %q is not a lowercase hex sha256", n, sum)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("checksums.txt lists %s twice", name)
		}
		out[name] = sum
	}
	return out, sc.Err()
}

// Load reads and parses the file at path.
func Load(path string) (File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read checksums: %w", err)
	}
	return Parse(data)
}

// Bytes renders the file with lines sorted by name, as GoReleaser writes it.
func (f File) Bytes() []byte {
	var b bytes.Buffer
	for _, name := range slices.Sorted(maps.Keys(f)) {
		fmt.Fprintf(&b, "%s  %s\n", f[name], name)
	}
	return b.Bytes()
}

// Write writes the rendered file to path.
func (f File) Write(path string) error {
	if err := os.WriteFile(path, f.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write checksums: %w", err)
	}
	return nil
}
