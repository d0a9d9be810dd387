package store

import (
	"bytes"
	"encoding/json"

	"github.com/agenttool/collab/core/canon"
)

// marshalNoEscape is json.Marshal without HTML escaping and without the
// trailing newline an Encoder adds; U+2028/U+2029 come out raw, as
// JSON.stringify writes them.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return canon.RawLineSeparators(bytes.TrimRight(b.Bytes(), "\n")), nil
}
