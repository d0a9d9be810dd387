package cli

import (
	"fmt"
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
	// Items, for a list, is the most entries it may hold; Each bounds
	// every entry.
	Items int
	Each  *Bound
	// Least and Most, for a whole number, bound its value (Most 0: none).
	Least, Most int64
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

// boundedID is the bound of an identifier whose schema states its most
// length as well (a new task's id, a dependency).
func boundedID(f field.Field) Bound {
	s := f.Spec()
	return Bound{Field: s.Name, Min: int(s.Min), Max: int(s.Max)}
}

// list is the bound of a list field, each entry held to each.
func list(f field.Field, each Bound) Bound {
	each.Field = ""
	return Bound{Field: f.Spec().Name, Items: int(f.Spec().Max), Each: &each}
}

// count is the bound of a whole-number field.
func count(f field.Field) Bound {
	s := f.Spec()
	return Bound{Field: s.Name, Least: s.Min, Most: s.Max}
}

func enum(name string, values ...string) Bound { return Bound{Field: name, Enum: values} }

// ArgumentBounds lists, per tool, the bounds of the arguments the people's
// commands take from a person, in the order the tool's schema lists them.
func ArgumentBounds() map[string][]Bound {
	reportKinds := enum("kind", "observation", "inference", "proposal", "decision")
	confidence := enum("confidence", "high", "medium", "low", "unknown")
	return map[string][]Bound{
		"collab_session_start": {stated(field.RootPath), stated(field.Actor)},
		"collab_report_append": {stated(field.TaskID), stated(field.ToSessionID), reportKinds, stated(field.Body)},
		"collab_decision_record": {stated(field.Topic), stated(field.Decision), stated(field.Rationale),
			stated(field.AuthorityScope), stated(field.AuthorityBasis)},
		"collab_task_get":    {stated(field.TaskID)},
		"collab_task_review": {stated(field.TaskID), stated(field.Summary)},
		"collab_task_create": {boundedID(field.NewTaskID), stated(field.Title), stated(field.Description),
			list(field.Dependencies, boundedID(field.Dependency)), list(field.PathScopes, stated(field.PathScope)),
			enum("work_mode", "coordination", "read_only", "edit"), enum("completion_policy", "reported", "accepted")},
		"collab_task_claim":      {stated(field.TaskID), count(field.LeaseTTL)},
		"collab_task_renew":      {stated(field.TaskID), count(field.LeaseTTL)},
		"collab_task_release":    {stated(field.TaskID), stated(field.ReleaseSummary)},
		"collab_task_complete":   {stated(field.TaskID), stated(field.Summary), confidence, stated(field.ConfidenceBasis), stated(field.Limits), list(field.EvidenceRefs, stated(field.EvidenceRef))},
		"collab_handoff_offer":   {stated(field.TaskID), stated(field.ToSessionID), stated(field.Summary), count(field.LeaseTTL)},
		"collab_handoff_respond": {stated(field.HandoffID), enum("response", "accept", "decline")},
		"collab_task_recover": {stated(field.TaskID), stated(field.RecoveryNote), enum("action", "takeover", "release", "block"),
			stated(field.Blocker), count(field.LeaseTTL)},
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
		return nil, invalidInput(tool, broken)
	}
	return out, nil
}

// invalidInput is the face's refusal of arguments outside a tool's bounds.
func invalidInput(tool string, broken []string) error {
	return refusalProblem("invalid_input", "Input validation error: Invalid arguments for tool "+tool+": "+strings.Join(broken, "; "))
}

// boundOf is the bound ArgumentBounds states for tool's argument name;
// an argument without one is this package's mistake, reported as such.
func boundOf(tool, name string) (Bound, error) {
	for _, b := range ArgumentBounds()[tool] {
		if b.Field == name {
			return b, nil
		}
	}
	return Bound{}, fmt.Errorf("no bound is stated for %s.%s", tool, name)
}

// checkedList returns a list argument as JSON would carry it, refused
// with the face's invalid_input message when it holds too many entries or
// an entry outside the bound.
func checkedList(tool, name string, values []string) ([]string, error) {
	b, err := boundOf(tool, name)
	if err != nil {
		return nil, err
	}
	if b.Each == nil {
		return nil, fmt.Errorf("%s.%s is not stated as a list", tool, name)
	}
	if len(values) > b.Items {
		return nil, invalidInput(tool, []string{name + " must hold at most " + strconv.Itoa(b.Items) + " entries"})
	}
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = asJSONText(v)
		if reason := b.Each.check(out[i]); reason != "" {
			return nil, invalidInput(tool, []string{name + "[" + strconv.Itoa(i) + "] " + reason})
		}
	}
	return out, nil
}

// checkedCount refuses a whole-number argument outside its bound.
func checkedCount(tool, name string, v int64) error {
	b, err := boundOf(tool, name)
	if err != nil {
		return err
	}
	if v < b.Least || (b.Most > 0 && v > b.Most) {
		return invalidInput(tool, []string{name + " must be from " + strconv.FormatInt(b.Least, 10) + " to " + strconv.FormatInt(b.Most, 10)})
	}
	return nil
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
