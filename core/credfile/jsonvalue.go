package credfile

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER (2^53 - 1), the
// largest integer the reference implementation can hold exactly.
const maxSafeInteger = 1<<53 - 1

// jsonObject decodes raw when it is a JSON object. encoding/json would
// silently accept null into a map, so the leading byte is checked first.
func jsonObject(raw []byte) (map[string]json.RawMessage, bool) {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, false
	}
	return obj, true
}

// jsonString decodes raw when it is a JSON string (null is not a string).
func jsonString(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// jsonSafeInteger decodes raw when it is a JSON number whose value, read as
// an IEEE-754 double the way JSON.parse reads it, is an integer within
// ±(2^53 - 1). So 3, 3.0 and 3e0 are accepted; 3.5 and 1e400 are not.
func jsonSafeInteger(raw json.RawMessage) (int64, bool) {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > maxSafeInteger {
		return 0, false
	}
	return int64(f), true
}
