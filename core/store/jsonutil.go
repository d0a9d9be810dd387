package store

import (
	"bytes"
	"encoding/json"
)

// marshalNoEscape is json.Marshal without HTML escaping and without the
// trailing newline an Encoder adds.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
