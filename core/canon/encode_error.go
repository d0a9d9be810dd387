package canon

import (
	"fmt"
	"strconv"
	"strings"
)

// maxPathSegments bounds how much of a failing value's location an error
// message spells out.
const maxPathSegments = 16

// locatedError carries an encoding failure up through the containers that
// hold it. Segments are collected innermost first, so each level costs
// O(1); the message is built once, at the top.
type locatedError struct {
	err      error
	reversed []string
}

func (e *locatedError) Error() string {
	if len(e.reversed) == 0 {
		return e.err.Error()
	}
	var path strings.Builder
	path.WriteByte('$')
	for i := len(e.reversed) - 1; i >= 0 && len(e.reversed)-i <= maxPathSegments; i-- {
		path.WriteString(e.reversed[i])
	}
	if len(e.reversed) > maxPathSegments {
		path.WriteString("…")
	}
	return fmt.Sprintf("%v (at %s)", e.err, path.String())
}

func (e *locatedError) Unwrap() error { return e.err }

// within records that err happened inside the container element seg.
func within(err error, seg func() string) error {
	le, ok := err.(*locatedError)
	if !ok {
		le = &locatedError{err: err}
	}
	le.reversed = append(le.reversed, seg())
	return le
}

func indexSegment(i int) func() string {
	return func() string { return "[" + strconv.Itoa(i) + "]" }
}

func keySegment(k string) func() string {
	return func() string { return "[" + strconv.Quote(k) + "]" }
}
