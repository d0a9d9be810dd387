package field_test

import (
	"regexp"
	"testing"

	"github.com/agenttool/collab/core/field"
)

// TestEveryRowIsWellFormed checks what the readers of the table rely on:
// every row has a name and a kind; bounds are ordered; a schema bound
// only ever narrows the store's; patterns compile; every list names an
// entry row; identifiers all follow the one identifier rule.
func TestEveryRowIsWellFormed(t *testing.T) {
	rows := field.All()
	if len(rows) < 60 {
		t.Fatalf("the table has %d rows; the tools take more fields than that", len(rows))
	}
	for _, f := range rows {
		s := f.Spec()
		switch {
		case s.Name == "" || s.Kind == 0:
			t.Errorf("row %d has no name or kind", f)
		case s.Max != 0 && s.Min > s.Max:
			t.Errorf("%s: Min %d above Max %d", s.Name, s.Min, s.Max)
		case s.SchemaMax != 0 && (s.SchemaMax > s.Max || s.Kind != field.Text):
			t.Errorf("%s: SchemaMax %d must narrow a text field's Max %d", s.Name, s.SchemaMax, s.Max)
		case s.Kind == field.List && s.Item.Spec().Kind == field.List:
			t.Errorf("%s: a list of lists", s.Name)
		case s.Kind == field.Identifier && (s.Min != 1 || s.Max != field.MaxID || s.Pattern != field.IDPattern):
			t.Errorf("%s: an identifier that does not follow the identifier rule", s.Name)
		}
		if s.Pattern != "" {
			if _, err := regexp.Compile(s.Pattern); err != nil {
				t.Errorf("%s: pattern %q: %v", s.Name, s.Pattern, err)
			}
		}
		if s.Kind == field.Integer && s.Default != 0 && !s.Admits(s.Default) {
			t.Errorf("%s: default %d outside %d..%d", s.Name, s.Default, s.Min, s.Max)
		}
	}
}

// TestAnUnknownRowPanics: a Field that names no row is a programming
// error, never a silent zero rule that would accept everything.
func TestAnUnknownRowPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Spec of an unknown Field returned")
		}
	}()
	field.Field(0).Spec()
}
