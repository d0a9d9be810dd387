package web

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/agenttool/collab/core/field"
)

// formInput reads one posted form against the field table (core/field),
// the same bounds the store and the tool schemas apply, collecting every
// problem so the page can name them all at once. Nothing is sent to the
// store while any remains.
type formInput struct {
	v        url.Values
	problems []string
}

// text is the trimmed value of name under f's bounds; "" when absent and
// optional.
func (in *formInput) text(name string, f field.Field, required bool) string {
	v := strings.TrimSpace(strings.ReplaceAll(in.v.Get(name), "\r\n", "\n"))
	if v == "" {
		if required {
			in.problems = append(in.problems, name+" is required")
		}
		return ""
	}
	in.check(name, f, v)
	return v
}

// optional is text as an optional store input: nil when not given.
func (in *formInput) optional(name string, f field.Field) *string {
	if v := in.text(name, f, false); v != "" {
		return &v
	}
	return nil
}

// list reads one entry a line (commas also separate), each under f's
// item bounds.
func (in *formInput) list(name string, f field.Field) []string {
	spec := f.Spec()
	var out []string
	for _, part := range strings.FieldsFunc(in.v.Get(name), func(r rune) bool { return r == '\n' || r == '\r' || r == ',' }) {
		if p := strings.TrimSpace(part); p != "" {
			in.check(name, spec.Item, p)
			out = append(out, p)
		}
	}
	if spec.Max > 0 && len(out) > int(spec.Max) {
		in.problems = append(in.problems, fmt.Sprintf("%s has %d entries; at most %d are allowed", name, len(out), spec.Max))
	}
	return out
}

// choice is name's value when it is one of allowed, else a problem.
func (in *formInput) choice(name string, allowed ...string) string {
	v := in.v.Get(name)
	if !slices.Contains(allowed, v) {
		in.problems = append(in.problems, name+" must be one of "+strings.Join(allowed, ", "))
	}
	return v
}

// version is the task version the page showed (a positive integer).
func (in *formInput) version() int64 {
	n, err := strconv.ParseInt(in.v.Get("version"), 10, 64)
	if err != nil || n < 1 {
		in.problems = append(in.problems, "the form does not say which version of the task it shows; reload the page")
	}
	return n
}

func (in *formInput) check(name string, f field.Field, v string) {
	spec := f.Spec()
	switch spec.Kind {
	case field.Identifier:
		if !field.IsID(v) {
			in.problems = append(in.problems, name+" is not a valid identifier (letters, digits, '.', '_', ':', '-'; at most "+strconv.FormatInt(spec.Max, 10)+")")
		}
	case field.Text:
		n := len(utf16.Encode([]rune(v)))
		if max := spec.StatedMax(); max > 0 && int64(n) > max {
			in.problems = append(in.problems, fmt.Sprintf("%s is %d characters long; at most %d are allowed", name, n, max))
		}
	}
}

// err is the problems found, as one refusal; nil when there are none.
func (in *formInput) err() error {
	if len(in.problems) == 0 {
		return nil
	}
	return actionError{what: "not sent: " + strings.Join(in.problems, "; "), fix: "correct the form and send it again", code: "invalid_input"}
}
