package canon

import (
	"fmt"
	"math"
)

// exactDiff compares two parsed trees requiring identical float64 bits
// (so -0 differs from 0) and identical string bytes. It returns "" when
// they match, or a description of the first difference.
func exactDiff(a, b any) string {
	switch x := a.(type) {
	case nil, bool, string:
		if a != b {
			return fmt.Sprintf("%#v != %#v", a, b)
		}
	case float64:
		y, ok := b.(float64)
		if !ok || math.Float64bits(x) != math.Float64bits(y) {
			return fmt.Sprintf("%#v != %#v", a, b)
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return fmt.Sprintf("array %#v != %#v", a, b)
		}
		for i := range x {
			if d := exactDiff(x[i], y[i]); d != "" {
				return fmt.Sprintf("[%d]: %s", i, d)
			}
		}
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return fmt.Sprintf("object %#v != %#v", a, b)
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok {
				return fmt.Sprintf("key %q missing", k)
			}
			if d := exactDiff(v, w); d != "" {
				return fmt.Sprintf("%q: %s", k, d)
			}
		}
	default:
		return fmt.Sprintf("unexpected type %T", a)
	}
	return ""
}

// mustMarshalKeysAndStrings concatenates every key and string in v, each
// followed by a NUL, so that lone-surrogate detection can run over them.
func mustMarshalKeysAndStrings(v any) []byte {
	var out []byte
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(append(out, x...), 0)
		case []any:
			for _, item := range x {
				walk(item)
			}
		case map[string]any:
			for k, item := range x {
				out = append(append(out, k...), 0)
				walk(item)
			}
		}
	}
	walk(v)
	return out
}

// normalizeNonFinite replaces NaN and ±Inf by nil, which is how canonical
// JSON writes them, so that a parsed input can be compared with the parse
// of its canonical form.
func normalizeNonFinite(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil
		}
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = normalizeNonFinite(item)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, item := range x {
			out[k] = normalizeNonFinite(item)
		}
		return out
	}
	return v
}
