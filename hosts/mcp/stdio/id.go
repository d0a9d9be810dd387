package stdio

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Request ids as the client wrote them.
//
// The SDK holds an id as a string or an int64 and reads a number through
// float64, so 1.5 would come back 1 and 9007199254740993 come back
// 9007199254740992. Every id is therefore given to the SDK in a form it
// carries exactly, and answers carry the client's own text again:
//   - a string is the string;
//   - a number whose value is an integer within ±(2^53-1), however it is
//     written (7, 7.0, 1e3, -0), is that integer, answered in its plain
//     form (7, 7, 1000, 0), as the reference answers it;
//   - any other number (1.5, 9007199254740993, 1e400) is held as a
//     reserved string carrying its exact text, and answered with that text;
//   - a client string that begins with the reserved prefix is held the
//     same way, so no client id can pass for another.
// Anything else (true, null, an object) is not an id.

// heldPrefix begins every id held for a client's exact text. It starts
// with a NUL, which no client is expected to put in an id; one that does
// is held too (see above).
const heldPrefix = "\x00collab-held-id:"

// ClientID returns the id the SDK is given for the id text raw, and the
// text an answer carries for it. ok is false when raw is not a string or
// a number.
func ClientID(raw json.RawMessage) (id jsonrpc.ID, echo json.RawMessage, ok bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return jsonrpc.ID{}, nil, false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return jsonrpc.ID{}, nil, false
		}
		if strings.HasPrefix(s, heldPrefix) {
			return held(raw)
		}
		id, err := jsonrpc.MakeID(s)
		return id, raw, err == nil
	}
	if (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) || !json.Valid(raw) {
		return jsonrpc.ID{}, nil, false
	}
	if n, isInt := safeInteger(string(raw)); isInt {
		id, err := jsonrpc.MakeID(float64(n)) // exact: |n| < 2^53
		return id, json.RawMessage(strconv.FormatInt(n, 10)), err == nil
	}
	return held(raw)
}

func held(raw json.RawMessage) (jsonrpc.ID, json.RawMessage, bool) {
	id, err := jsonrpc.MakeID(heldPrefix + string(raw))
	return id, raw, err == nil
}

// WireID returns the client's text for an id held by ClientID, or
// ok false for an id the SDK writes as it is.
func WireID(id jsonrpc.ID) (json.RawMessage, bool) {
	s, isString := id.Raw().(string)
	if !isString {
		return nil, false
	}
	text, found := strings.CutPrefix(s, heldPrefix)
	if !found || !json.Valid([]byte(text)) {
		return nil, false
	}
	return json.RawMessage(text), true
}

// safeInteger reports whether the JSON number text s has an integer value
// within ±(2^53-1), and returns it; s is valid JSON. It reads the digits and the exponent
// itself: a float64 parse rounds (9007199254740993 and 9007199254740990.5
// would both look like integers), and a big-number parse of 1e999999999
// would allocate without bound.
func safeInteger(s string) (int64, bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mantissa, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	whole, frac, _ := strings.Cut(mantissa, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, digits == "" && whole != ""
	}
	shift := -len(frac)
	if hasExp {
		e, err := strconv.Atoi(strings.TrimPrefix(exp, "+"))
		if err != nil || e > 100 || e < -100 {
			return 0, false // far outside the safe range, or far below 1
		}
		shift += e
	}
	trimmed := strings.TrimRight(digits, "0")
	shift += len(digits) - len(trimmed)
	digits = trimmed
	if shift < 0 || len(digits)+shift > 16 {
		return 0, false
	}
	n, err := strconv.ParseInt(digits+strings.Repeat("0", shift), 10, 64)
	if err != nil || n > maxSafeID {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}
