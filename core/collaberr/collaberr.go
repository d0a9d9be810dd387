// Package collaberr defines the refusal type every collab operation returns
// when it declines a request: a stable machine-readable code, a sentence a
// person can act on, and ordered details. Codes are part of the public
// contract shared with @agenttool/collab (codes.go declares every one and
// registry.go says when each happens and what to do; docs/errors.md is
// generated from it); messages are this project's own.
package collaberr

import (
	"errors"
	"fmt"
)

// Field is one named detail of a refusal. Details keep the order in which
// they were added so that rendered errors are deterministic.
type Field struct {
	Key   string
	Value any
}

// Error is a refusal with a stable code. It never wraps infrastructure
// failures: those are ordinary Go errors and surface as internal_error.
// Code holds the wire text of a registered Code (a plain string, so that
// renderers and comparisons see exactly what a client receives).
type Error struct {
	Code    string
	Message string
	Details []Field
}

// New returns a refusal with the given code and message and no details.
// The code is one of the constants of this package (see Registry).
func New(code Code, message string) *Error {
	return &Error{Code: string(code), Message: message}
}

// Newf is New with a formatted message.
func Newf(code Code, format string, args ...any) *Error {
	return &Error{Code: string(code), Message: fmt.Sprintf(format, args...)}
}

// With returns the refusal with one more detail appended. It mutates and
// returns the receiver so that construction reads as one expression.
func (e *Error) With(key string, value any) *Error {
	e.Details = append(e.Details, Field{Key: key, Value: value})
	return e
}

// Error implements error as "code: message".
func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Detail returns the value of the named detail and whether it exists.
func (e *Error) Detail(key string) (any, bool) {
	for _, f := range e.Details {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// As reports whether err is, or wraps, a refusal and returns it.
func As(err error) (*Error, bool) {
	var ce *Error
	if errors.As(err, &ce) {
		return ce, true
	}
	return nil, false
}

// HasCode reports whether err is a refusal carrying code.
func HasCode(err error, code Code) bool {
	ce, ok := As(err)
	return ok && ce.Code == string(code)
}
