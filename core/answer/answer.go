package answer

import (
	"bytes"
	"fmt"
)

// Of is what one idempotent mutation answers: the value it has just
// produced together with that value's rendering, or, for an exact retry,
// only the rendering the first call's receipt stored. Mutations return a
// *Of that is nil exactly when they return an error.
type Of[T any] struct {
	value *T
	json  []byte
}

// Value returns the value a fresh change produced; ok is false for a
// replay, whose answer exists only as the bytes JSON returns.
func (a Of[T]) Value() (v T, ok bool) {
	if a.value == nil {
		return v, false
	}
	return *a.value, true
}

// Replayed reports whether the answer is a retry's stored answer.
func (a Of[T]) Replayed() bool { return a.value == nil }

// JSON returns the answer as the caller is told it: compact JSON, byte for
// byte what a retry with the same key will be told. The caller must not
// modify it.
func (a Of[T]) JSON() []byte { return a.json }

// Map turns an answer of one type into another without touching its
// rendering: f maps the fresh value, and a replay stays the bytes it was.
// f must not change what the value renders as.
func Map[T, U any](a *Of[T], f func(T) U) *Of[U] {
	if a == nil {
		return nil
	}
	out := &Of[U]{json: a.json}
	if a.value != nil {
		u := f(*a.value)
		out.value = &u
	}
	return out
}

// Render renders the fresh answer v of operation: receipt is what the
// idempotency receipt stores, and the answer's JSON is built from it. For
// an operation Member names, v must be a Single of that member; its value
// is encoded once, for the receipt, and the answer wraps those bytes.
func Render[T any](operation string, v *T) (a *Of[T], receipt []byte, err error) {
	if v == nil {
		return nil, nil, fmt.Errorf("%s produced no answer", operation)
	}
	name, single := Member(operation)
	if !single {
		b, err := Encode(v)
		if err != nil {
			return nil, nil, fmt.Errorf("encode %s answer: %w", operation, err)
		}
		return &Of[T]{value: v, json: b}, b, nil
	}
	s, ok := any(*v).(Single)
	if !ok {
		return nil, nil, fmt.Errorf("%s answers {%s} but %T is not a single-member answer", operation, name, *v)
	}
	member, value := s.Single()
	if member != name {
		return nil, nil, fmt.Errorf("%s answers {%s} but %T is {%s}", operation, name, *v, member)
	}
	receipt, err = Encode(value)
	if err != nil {
		return nil, nil, fmt.Errorf("encode %s answer: %w", operation, err)
	}
	return &Of[T]{value: v, json: wrap(name, receipt)}, receipt, nil
}

// Replay returns the answer an exact retry of operation gets from the
// receipt bytes stored: the stored value wrapped in its member for a
// single-member operation, otherwise the stored answer as it is. A receipt
// that already holds the wrapped answer (written by versions of this
// implementation before it matched the reference) is returned as it is,
// so those databases keep replaying correctly here.
func Replay[T any](operation string, stored []byte) *Of[T] {
	name, single := Member(operation)
	if !single || hasMemberPrefix(stored, name) {
		return &Of[T]{json: stored}
	}
	return &Of[T]{json: wrap(name, stored)}
}

// wrap builds {"name":value} around the encoded value.
func wrap(name string, value []byte) []byte {
	out := make([]byte, 0, len(value)+len(name)+5)
	out = append(out, `{"`...)
	out = append(out, name...)
	out = append(out, `":`...)
	out = append(out, value...)
	return append(out, '}')
}

// hasMemberPrefix reports whether stored already starts {"name":{.
func hasMemberPrefix(stored []byte, name string) bool {
	return bytes.HasPrefix(stored, []byte(`{"`+name+`":{`))
}
