package anchor

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// These helpers read decoded JSON with JavaScript's type tests in mind:
// typeof x === "string", typeof x === "number", Number.isSafeInteger(x).
// encoding/json would silently accept null into maps, strings and numbers,
// so every helper checks the leading byte of the raw value first.

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER (2^53 - 1).
const maxSafeInteger = 1<<53 - 1

func leading(raw []byte) byte {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

// jsonObject decodes raw when it is a JSON object; a repeated member keeps
// its last value, as with JSON.parse.
func jsonObject(raw []byte) (map[string]json.RawMessage, bool) {
	if leading(raw) != '{' {
		return nil, false
	}
	var obj map[string]json.RawMessage
	return obj, json.Unmarshal(raw, &obj) == nil
}

// jsonArray decodes raw when it is a JSON array.
func jsonArray(raw []byte) ([]json.RawMessage, bool) {
	if leading(raw) != '[' {
		return nil, false
	}
	var arr []json.RawMessage
	return arr, json.Unmarshal(raw, &arr) == nil
}

// jsonString decodes raw when it is a JSON string.
func jsonString(raw []byte) (string, bool) {
	if leading(raw) != '"' {
		return "", false
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// jsonNumber decodes raw when it is a JSON number, as the IEEE-754 double
// JSON.parse would produce. A literal too large for a double (1e400) is
// reported with ok and an infinite value, as JSON.parse yields Infinity.
func jsonNumber(raw []byte) (float64, bool) {
	c := leading(raw)
	if c != '-' && (c < '0' || c > '9') {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// jsonSafeInteger decodes raw when it is a JSON number whose double value
// is an integer within ±(2^53 - 1), like Number.isSafeInteger.
func jsonSafeInteger(raw []byte) (int64, bool) {
	f, ok := jsonNumber(raw)
	if !ok || math.IsInf(f, 0) || f != math.Trunc(f) || math.Abs(f) > maxSafeInteger {
		return 0, false
	}
	return int64(f), true
}
