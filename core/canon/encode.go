package canon

import (
	"encoding/json"
	"fmt"
)

// Marshal returns the canonical JSON encoding of v; see Append.
func Marshal(v any) ([]byte, error) {
	return Append(nil, v)
}

// Append appends the canonical JSON encoding of v to dst: no whitespace,
// object members in JavaScript enumeration order after a UTF-16 key sort,
// strings as AppendString writes them and numbers as AppendNumber does.
//
// Accepted types are nil, bool, string, float64, float32 (widened exactly),
// Go integer types whose value lies within ±2^53, json.Number, []any,
// []string, []map[string]any, map[string]any, map[string]string and
// json.RawMessage (copied as is when already canonical, otherwise parsed with
// Parse and encoded). Strings and keys must be valid WTF-8. Anything else
// fails with an error wrapping ErrUnsupportedType, ErrInvalidString,
// ErrUnsafeInteger, ErrInvalidNumber, ErrTooDeep or a *SyntaxError; dst is
// then unspecified.
func Append(dst []byte, v any) ([]byte, error) {
	return appendValue(dst, v, 0)
}

// appendValue encodes v, which sits inside depth arrays and objects.
func appendValue(dst []byte, v any, depth int) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		if x {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case string:
		return appendCheckedString(dst, x)
	case float64:
		return AppendNumber(dst, x), nil
	case float32:
		return AppendNumber(dst, float64(x)), nil
	case json.Number:
		return appendJSONNumber(dst, x)
	case json.RawMessage:
		return appendRawMessage(dst, x, depth)
	case []any:
		return appendArray(dst, x, depth)
	case []string:
		return appendArray(dst, x, depth)
	case []map[string]any:
		return appendArray(dst, x, depth)
	case map[string]any:
		return appendObject(dst, x, depth)
	case map[string]string:
		return appendObject(dst, x, depth)
	}
	if f, ok, err := integerValue(v); ok {
		if err != nil {
			return dst, err
		}
		return AppendNumber(dst, f), nil
	}
	return dst, fmt.Errorf("%w: %T", ErrUnsupportedType, v)
}

func errTooDeep() error {
	return fmt.Errorf("%w: more than %d levels", ErrTooDeep, maxDepth)
}

func appendArray[V any](dst []byte, items []V, depth int) ([]byte, error) {
	if depth++; depth > maxDepth {
		return dst, errTooDeep()
	}
	dst = append(dst, '[')
	for i, item := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendValue(dst, item, depth); err != nil {
			return dst, within(err, indexSegment(i))
		}
	}
	return append(dst, ']'), nil
}

func appendObject[V any](dst []byte, members map[string]V, depth int) ([]byte, error) {
	if depth++; depth > maxDepth {
		return dst, errTooDeep()
	}
	dst = append(dst, '{')
	var small [16]string
	for i, key := range sortedKeys(small[:0], members) {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendCheckedString(dst, key); err != nil {
			return dst, within(err, keySegment(key))
		}
		dst = append(dst, ':')
		if dst, err = appendValue(dst, members[key], depth); err != nil {
			return dst, within(err, keySegment(key))
		}
	}
	return append(dst, '}'), nil
}

func appendCheckedString(dst []byte, s string) ([]byte, error) {
	out, ok := appendString(dst, s, false)
	if !ok {
		return out, fmt.Errorf("%w: %q", ErrInvalidString, s)
	}
	return out, nil
}

// appendRawMessage copies canonical JSON text through and canonicalises
// anything else.
func appendRawMessage(dst []byte, raw json.RawMessage, depth int) ([]byte, error) {
	if IsCanonical(raw) {
		return append(dst, raw...), nil
	}
	parsed, err := Parse(raw)
	if err != nil {
		return dst, fmt.Errorf("canon: encoding json.RawMessage: %w", err)
	}
	return appendValue(dst, parsed, depth)
}

// appendJSONNumber encodes a json.Number after checking it against the JSON
// number grammar, rounding it as JSON.parse would.
func appendJSONNumber(dst []byte, n json.Number) ([]byte, error) {
	p := parser{data: []byte(n)}
	v, err := p.number()
	if err != nil || p.pos != len(p.data) {
		return dst, fmt.Errorf("%w: %q", ErrInvalidNumber, string(n))
	}
	return AppendNumber(dst, v.(float64)), nil
}
