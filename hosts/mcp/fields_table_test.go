package mcp

import (
	"strings"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/normalize"
)

// ownBounds are the arguments whose bounds are not in the field table, each
// with the one place they are stated instead. Everything else a tool's
// schema bounds must be a row of the table.
var ownBounds = map[string]string{
	"query":               "core/search: search.DefaultLimits",
	"kinds":               "core/search: len(search.Kinds), one of each kind",
	"collab_search.limit": "core/search: search.MaxLimit",
	"timeout_ms":          "defs_wait.go: WaitMaxMillis, an extension only this face serves",
}

// TestEveryStatedBoundIsARowOfTheTable walks every tool's input schema and
// holds each bounded argument to a row of the field table with its name:
// its minLength, maxLength, pattern, minimum, maximum and maxItems must be
// the row's (a schema may state less of an identifier's rule than the
// store applies, never something else). Bounds of zero (sequences and
// cursor versions are "zero or more") carry no limit and are skipped.
func TestEveryStatedBoundIsARowOfTheTable(t *testing.T) {
	byName := map[string][]field.Spec{}
	for _, f := range field.All() {
		s := f.Spec()
		for _, n := range append([]string{s.Name}, s.Also...) {
			byName[n] = append(byName[n], s)
		}
	}
	checked := 0
	for _, tool := range Tools() {
		for _, p := range tool.Input.Properties {
			checked += checkBounded(t, tool.Name, p.Name, p.Schema, byName)
		}
	}
	if checked < 80 {
		t.Fatalf("only %d bounded arguments were checked; the walk lost its way", checked)
	}
}

// checkBounded checks one argument (and the entries or members inside it)
// and returns how many bounded schemas it checked.
func checkBounded(t *testing.T, tool, name string, s *Schema, byName map[string][]field.Spec) int {
	t.Helper()
	if _, own := ownBounds[name]; own {
		return 0
	}
	if _, own := ownBounds[tool+"."+name]; own {
		return 0
	}
	n := 0
	for _, p := range s.Properties {
		n += checkBounded(t, tool, p.Name, p.Schema, byName)
	}
	if !bounded(s) {
		return n
	}
	for _, row := range byName[name] {
		if statesRow(s, row) {
			return n + 1
		}
	}
	b, _ := s.MarshalJSON()
	t.Errorf("%s: argument %s states %s, which no row of the field table named %q gives", tool, name, b, name)
	return n + 1
}

// bounded reports whether s states a limit: a length, a pattern, a range
// other than "zero or more" and the safe-integer ceiling, or an item count.
func bounded(s *Schema) bool {
	return s.MinLength != nil || s.MaxLength != nil || s.Pattern != "" || s.MaxItems != nil ||
		(s.Minimum != nil && *s.Minimum != 0) || s.ExclusiveMinimum != nil ||
		(s.Maximum != nil && *s.Maximum != maxSafeInteger)
}

// statesRow reports whether s states row's rule or, for an identifier or
// a digest, part of it.
func statesRow(s *Schema, row field.Spec) bool {
	switch row.Kind {
	case field.List:
		return s.Type == "array" && eqInt(s.MaxItems, row.Max) && statesRow(s.Items, row.Item.Spec())
	case field.Integer:
		lower := eqInt64(s.Minimum, row.Min) || (s.Minimum == nil && eqInt64(s.ExclusiveMinimum, row.Min-1))
		upper := (row.Max == 0 && eqInt64(s.Maximum, maxSafeInteger)) || eqInt64(s.Maximum, row.Max)
		return s.Type == "integer" && lower && upper
	}
	if s.Type != "string" || s.Enum != nil {
		return false
	}
	minOK := eqInt(s.MinLength, row.Min) || (row.Min == 0 && s.MinLength == nil)
	maxOK := eqInt(s.MaxLength, row.StatedMax()) || (row.StatedMax() == 0 && s.MaxLength == nil)
	patOK := s.Pattern == row.Pattern
	switch row.Kind {
	case field.Identifier: // the whole rule, its bounds, or only "not empty"
		return minOK && (maxOK || s.MaxLength == nil) && (patOK || s.Pattern == "") && (s.Pattern == "" || maxOK)
	case field.Hex: // its pattern, or its length bounds
		return (row.Pattern != "" && patOK && s.MinLength == nil && s.MaxLength == nil) || (s.Pattern == "" && minOK && maxOK)
	}
	return minOK && maxOK && patOK
}

func eqInt(p *int, n int64) bool     { return p != nil && int64(*p) == n }
func eqInt64(p *int64, n int64) bool { return p != nil && *p == n }

// TestARowBoundsTheSchemaAndTheStoreAlike checks, row by row of the text
// and identifier fields, that the schema rendered from the row and the
// store's check (normalize.Text) move together: a value of exactly the
// row's length passes both, one unit more is refused by both (the store
// with invalid_<name>). A row changed in core/field therefore changes
// both sides, and this test keeps them in step whatever the new number.
func TestARowBoundsTheSchemaAndTheStoreAlike(t *testing.T) {
	for _, f := range field.All() {
		s := f.Spec()
		if (s.Kind != field.Text && s.Kind != field.Identifier) || s.Max == 0 {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			schema := textField(f).compile()
			if s.Kind == field.Identifier {
				schema = fullIDField(f).compile()
			}
			stated := int(s.StatedMax())
			longest, tooLong := strings.Repeat("a", stated), strings.Repeat("a", stated+1)
			if v := stringViolations(schema, longest); len(v) != 0 {
				t.Errorf("the schema refuses %d characters: %v", stated, v)
			}
			if v := stringViolations(schema, tooLong); len(v) == 0 {
				t.Errorf("the schema accepts %d characters", stated+1)
			}
			if _, err := normalize.Text(strings.Repeat("a", int(s.Max)), f); err != nil {
				t.Errorf("the store refuses %d characters: %v", s.Max, err)
			}
			_, err := normalize.Text(strings.Repeat("a", int(s.Max)+1), f)
			if !collaberr.HasCode(err, collaberr.Invalid(s.Name)) {
				t.Errorf("the store's answer to %d characters is %v, want %s", s.Max+1, err, collaberr.Invalid(s.Name))
			}
		})
	}
}

// stringViolations validates v against the string schema s.
func stringViolations(s *Schema, v string) []violation {
	var out []violation
	s.validateValue("v", v, &out)
	return out
}
