package normalize

import (
	"math"

	"github.com/agenttool/collab/core/field"
)

// Text applies the rule of a text or identifier field of the table: for
// Text, CleanText with the field's Name and Max (a row without a Max
// bounds no length); for Identifier, ID. The refusal is invalid_<Name>.
func Text(v string, f field.Field) (string, error) {
	s := f.Spec()
	if s.Kind == field.Identifier {
		return ID(v, s.Name)
	}
	longest := s.Limit()
	if s.Max == 0 {
		longest = math.MaxInt
	}
	return CleanText(v, s.Name, longest)
}

// Optional is Text for a field that may be left out: nil, empty and
// white-space-only values all mean "absent" and yield nil.
func Optional(v *string, f field.Field) (*string, error) {
	if v == nil || TrimJS(*v) == "" {
		return nil, nil
	}
	text, err := Text(*v, f)
	if err != nil {
		return nil, err
	}
	return &text, nil
}
