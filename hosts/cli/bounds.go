package cli

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agenttool/collab/core/field"
)

// Bound is what a tool's input schema allows of one argument a person's
// command sends: at least Min and at most Max UTF-16 code units (0: no
// bound), or one of Enum. The MCP face checks the schema before a call
// reaches the store, whose own checks refuse with other codes, so a
// person's command, calling the store directly, checks the schema's
// bounds itself and refuses with the face's message. cmd's
// TestPeoplesArgumentBoundsFollowTheToolSchemas holds them equal to the
// tool schemas.
type Bound struct {
	Field    string
	Min, Max int
	Enum     []string
}

// stated is the bound the tool schema states for f's row of the field
// table: an identifier's schema says only that it is not empty.
func stated(f field.Field) Bound {
	s := f.Spec()
	if s.Kind == field.Identifier {
		return Bound{Field: s.Name, Min: int(s.Min)}
	}
	return Bound{Field: s.Name, Min: int(s.Min), Max: int(s.StatedMax())}
}

// ArgumentBounds lists, per tool, the bounds of the arguments the people's
// commands take from a person, in the order the tool's schema lists them.
func ArgumentBounds() map[string][]Bound {
	reportKinds := Bound{Field: "kind", Enum: []string{"observation", "inference", "proposal", "decision"}}
	return map[string][]Bound{
		"collab_session_start": {stated(field.RootPath), stated(field.Actor)},
		"collab_report_append": {stated(field.TaskID), stated(field.ToSessionID), reportKinds, stated(field.Body)},
		"collab_decision_record": {stated(field.Topic), stated(field.Decision), stated(field.Rationale),
			stated(field.AuthorityScope), stated(field.AuthorityBasis)},
		"collab_task_get":    {stated(field.TaskID)},
		"collab_task_review": {stated(field.TaskID), stated(field.Summary)},
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
