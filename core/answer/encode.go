package answer

import (
	"bytes"
	"encoding/json"

	"github.com/agenttool/collab/core/canon"
)

// Encode renders v as compact JSON in field order, without HTML escaping
// and without a trailing newline, with U+2028 and U+2029 written raw: the
// bytes JSON.stringify writes for the same object.
func Encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return canon.RawLineSeparators(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}
