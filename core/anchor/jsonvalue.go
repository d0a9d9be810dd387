package anchor

import (
	"math"
	"strconv"

	"github.com/agenttool/collab/core/canon"
)

// These helpers read the byte span of one JSON value (as scanValue found
// it, no surrounding whitespace) with JavaScript's type tests in mind:
// typeof x === "string", typeof x === "number", Number.isSafeInteger(x).
// A span of another type is simply not a match, so null is never taken
// for a string, a number or an object.

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER (2^53 - 1).
const maxSafeInteger = 1<<53 - 1

// parseDocument returns the span of the one JSON value that data holds
// (whitespace around it allowed), or false when data is not JSON.
func parseDocument(data []byte) ([]byte, bool) {
	start := skipSpace(data, 0)
	end := scanValue(data, start)
	if end < 0 || skipSpace(data, end) != len(data) {
		return nil, false
	}
	return data[start:end], true
}

// jsonObject returns the members of an object span; a repeated member keeps
// its last value, as with JSON.parse. Names are decoded as JSON.parse
// decodes them, so "\u0070rotocol" is the member protocol.
func jsonObject(raw []byte) (map[string][]byte, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	members := map[string][]byte{}
	i := skipSpace(raw, 1)
	for i < len(raw) && raw[i] != '}' {
		keyEnd := scanString(raw, i)
		name, ok := jsonString(raw[i:max(keyEnd, i)])
		valueStart := scanKeyColon(raw, i)
		if !ok || valueStart < 0 {
			return nil, false
		}
		valueEnd := scanValue(raw, valueStart)
		if valueEnd < 0 {
			return nil, false
		}
		members[name] = raw[valueStart:valueEnd]
		if i = skipSpace(raw, valueEnd); i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return members, i < len(raw)
}

// jsonArray returns the item spans of an array span.
func jsonArray(raw []byte) ([][]byte, bool) {
	if len(raw) == 0 || raw[0] != '[' {
		return nil, false
	}
	var items [][]byte
	i := skipSpace(raw, 1)
	for i < len(raw) && raw[i] != ']' {
		end := scanValue(raw, i)
		if end < 0 {
			return nil, false
		}
		items = append(items, raw[i:end])
		if i = skipSpace(raw, end); i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return items, i < len(raw)
}

// jsonString decodes a string span as JSON.parse does. An escaped
// surrogate that is not half of a pair is kept, as WTF-8 (see core/canon),
// so that it can be written back as the same \udxxx escape.
func jsonString(raw []byte) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	v, err := canon.Parse(raw)
	s, ok := v.(string)
	return s, ok && err == nil
}

// jsonNumber decodes a number span as the IEEE-754 double JSON.parse would
// produce. A literal too large for a double (1e400) is reported with ok and
// an infinite value, as JSON.parse yields Infinity.
func jsonNumber(raw []byte) (float64, bool) {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// jsonSafeInteger decodes a number span whose double value is an integer
// within ±(2^53 - 1), like Number.isSafeInteger.
func jsonSafeInteger(raw []byte) (int64, bool) {
	f, ok := jsonNumber(raw)
	if !ok || math.IsInf(f, 0) || f != math.Trunc(f) || math.Abs(f) > maxSafeInteger {
		return 0, false
	}
	return int64(f), true
}
