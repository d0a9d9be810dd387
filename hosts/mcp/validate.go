package mcp

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// violation is one way an argument breaks its schema. Path names the
// argument (and the position inside it); reason avoids naming any other
// argument so that the message points at exactly the offending inputs.
type violation struct {
	path   string
	reason string
}

// validate checks a decoded argument object against the tool's schema and
// returns every violation found. Unknown members are ignored (they are
// dropped before the handler sees them).
func (s *Schema) validate(args map[string]any) []violation {
	var out []violation
	s.validateObject("", args, &out)
	return out
}

func (s *Schema) validateObject(path string, obj map[string]any, out *[]violation) {
	for _, name := range s.Required {
		if _, ok := obj[name]; !ok {
			*out = append(*out, violation{join(path, name), "is required"})
		}
	}
	for _, p := range s.Properties {
		if v, ok := obj[p.Name]; ok {
			p.Schema.validateValue(join(path, p.Name), v, out)
		}
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (s *Schema) validateValue(path string, v any, out *[]violation) {
	add := func(reason string) { *out = append(*out, violation{path, reason}) }
	switch s.Type {
	case "string":
		text, ok := v.(string)
		if !ok {
			add("expected a string, got " + kindOf(v))
			return
		}
		s.validateString(text, add)
	case "integer":
		n, ok := v.(float64)
		if !ok || n != math.Trunc(n) || math.IsInf(n, 0) {
			add("expected an integer, got " + kindOf(v))
			return
		}
		s.validateRange(n, add)
	case "array":
		items, ok := v.([]any)
		if !ok {
			add("expected an array, got " + kindOf(v))
			return
		}
		if s.MaxItems != nil && len(items) > *s.MaxItems {
			add("has more than " + strconv.Itoa(*s.MaxItems) + " items")
		}
		for i, item := range items {
			s.Items.validateValue(path+"."+strconv.Itoa(i), item, out)
		}
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			add("expected an object, got " + kindOf(v))
			return
		}
		s.validateObject(path, obj, out)
	}
}

func (s *Schema) validateString(text string, add func(string)) {
	if s.Enum != nil {
		for _, e := range s.Enum {
			if e == text {
				return
			}
		}
		add("is not one of the allowed values")
		return
	}
	n := utf16Length(text)
	if s.MinLength != nil && n < *s.MinLength {
		if *s.MinLength == 1 {
			add("must not be empty")
		} else {
			add("must be at least " + strconv.Itoa(*s.MinLength) + " characters")
		}
	}
	if s.MaxLength != nil && n > *s.MaxLength {
		add("must be at most " + strconv.Itoa(*s.MaxLength) + " characters")
	}
	if s.pattern != nil && !s.pattern.MatchString(text) {
		add("has characters or a form that is not allowed")
	}
}

func (s *Schema) validateRange(n float64, add func(string)) {
	if s.Minimum != nil && n < float64(*s.Minimum) {
		add("must be at least " + strconv.FormatInt(*s.Minimum, 10))
	}
	if s.ExclusiveMinimum != nil && n <= float64(*s.ExclusiveMinimum) {
		add("must be greater than " + strconv.FormatInt(*s.ExclusiveMinimum, 10))
	}
	if s.Maximum != nil && n > float64(*s.Maximum) {
		add("must be at most " + strconv.FormatInt(*s.Maximum, 10))
	}
}

// utf16Length counts UTF-16 code units, the measure JavaScript and the
// reference's limits use.
func utf16Length(s string) int {
	n := 0
	for _, r := range s {
		if r == utf8.RuneError {
			n++
			continue
		}
		n += utf16.RuneLen(r)
	}
	return n
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "an unsupported value"
}

// describeViolations renders the input-rejection text: one clause per
// violation, each led by the argument path it concerns.
func describeViolations(tool string, vs []violation) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.path + " " + v.reason
	}
	return "Input validation error: Invalid arguments for tool " + tool + ": " + strings.Join(parts, "; ")
}
