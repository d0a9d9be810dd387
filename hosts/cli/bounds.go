package cli

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Bound is what a tool's input schema allows of one argument a person's
// command sends: at least Min and at most Max UTF-16 code units (0: no
// bound), or one of Enum. The MCP face checks these before a call reaches
// the store, which does not check them all again, so a person's command,
// calling the store directly, checks them itself and refuses as the face
// would. cmd's TestPeoplesArgumentBoundsFollowTheToolSchemas holds them
// equal to the tool schemas.
type Bound struct {
	Field    string
	Min, Max int
	Enum     []string
}

// ArgumentBounds lists, per tool, the bounds of the arguments the people's
// commands take from a person, in the order the tool's schema lists them.
func ArgumentBounds() map[string][]Bound {
	return map[string][]Bound{
		"collab_session_start": {{Field: "root_path", Min: 1}, {Field: "actor", Min: 1, Max: 200}},
		"collab_report_append": {{Field: "task_id", Min: 1}, {Field: "to_session_id", Min: 1},
			{Field: "kind", Enum: []string{"observation", "inference", "proposal", "decision"}}, {Field: "body", Min: 1, Max: 8000}},
		"collab_decision_record": {{Field: "topic", Min: 1, Max: 500}, {Field: "decision", Min: 1, Max: 4000},
			{Field: "rationale", Max: 4000}, {Field: "authority_scope", Max: 1000}, {Field: "authority_basis", Max: 2000}},
		"collab_task_get":    {{Field: "task_id", Min: 1}},
		"collab_task_review": {{Field: "task_id", Min: 1}, {Field: "summary", Min: 1, Max: 4000}},
	}
}

// checked returns a tool call's person-supplied arguments (only those
// given) as the MCP face would receive them, and refuses any outside the
// tool's bounds with the face's invalid_input message.
func checked(tool string, args map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(args))
	for k, v := range args {
		out[k] = asJSONText(v)
	}
	var broken []string
	for _, b := range ArgumentBounds()[tool] {
		if v, ok := out[b.Field]; ok {
			if reason := b.check(v); reason != "" {
				broken = append(broken, b.Field+" "+reason)
			}
		}
	}
	if len(broken) > 0 {
		return nil, refusalProblem("invalid_input", "Input validation error: Invalid arguments for tool "+tool+": "+strings.Join(broken, "; "))
	}
	return out, nil
}

// check says how v breaks the bound, "" when it does not.
func (b Bound) check(v string) string {
	if b.Enum != nil {
		for _, e := range b.Enum {
			if e == v {
				return ""
			}
		}
		return "is not one of the allowed values"
	}
	n := len(utf16.Encode([]rune(v)))
	switch {
	case b.Min == 1 && n == 0:
		return "must not be empty"
	case b.Min > 0 && n < b.Min:
		return "must be at least " + strconv.Itoa(b.Min) + " characters"
	case b.Max > 0 && n > b.Max:
		return "must be at most " + strconv.Itoa(b.Max) + " characters"
	}
	return ""
}

// asJSONText is s as it arrives after JSON encoding: each byte that is
// not valid UTF-8 becomes U+FFFD, as encoding/json writes it.
func asJSONText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
