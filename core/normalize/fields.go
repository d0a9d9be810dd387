package normalize

import "github.com/agenttool/collab/core/field"

// Text applies the rule of a text or identifier field of the table: for
// Text, CleanText with the field's Name and Max; for Identifier, ID. The
// refusal is invalid_<Name>.
func Text(v string, f field.Field) (string, error) {
	s := f.Spec()
	if s.Kind == field.Identifier {
		return ID(v, s.Name)
	}
	return CleanText(v, s.Name, s.Limit())
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
