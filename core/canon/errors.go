package canon

import (
	"errors"
	"fmt"
)

// SyntaxError reports input that JSON.parse would reject, or that this
// package refuses because it is not valid UTF-8 or nests too deeply.
type SyntaxError struct {
	// Offset is the byte position in the input where the problem was found.
	Offset int
	reason string
}

// Error describes the problem and its byte offset.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("canon: invalid JSON at byte %d: %s", e.Offset, e.reason)
}

// Errors returned by Append and Marshal, always wrapped with context.
var (
	// ErrUnsupportedType means the value has a Go type with no canonical
	// JSON form in this package.
	ErrUnsupportedType = errors.New("canon: unsupported value type")
	// ErrInvalidString means a string or key is neither UTF-8 nor WTF-8.
	ErrInvalidString = errors.New("canon: string is not valid UTF-8 or WTF-8")
	// ErrUnsafeInteger means an integer is outside ±2^53, where a
	// JavaScript number cannot hold it exactly.
	ErrUnsafeInteger = errors.New("canon: integer outside the exactly representable range")
	// ErrTooDeep means arrays and objects nest more than the supported depth
	// (or the value contains a cycle).
	ErrTooDeep = errors.New("canon: value nests too deeply")
	// ErrInvalidNumber means a json.Number does not hold a JSON number.
	ErrInvalidNumber = errors.New("canon: json.Number is not a valid JSON number")
)
