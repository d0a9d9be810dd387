package normalize

import (
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
)

// EvidenceRefs returns the trimmed evidence references sorted by UTF-16 code
// units without duplicates (never nil). More entries than
// field.EvidenceRefs allows is invalid_evidence_refs; an entry Text
// refuses (field.EvidenceRef) is invalid_evidence_ref. The kind:id syntax
// is checked elsewhere.
func EvidenceRefs(v []string) ([]string, error) {
	list := field.EvidenceRefs.Spec()
	if len(v) > list.Limit() {
		return nil, collaberr.Newf(collaberr.InvalidEvidenceRefs,
			"At most %d evidence references are allowed; got %d", list.Max, len(v))
	}
	out := make([]string, 0, len(v))
	for _, raw := range v {
		ref, err := Text(raw, list.Item)
		if err != nil {
			return nil, err
		}
		out = append(out, ref)
	}
	return SortUnique(out), nil
}

// Dependencies returns the task's dependency IDs sorted by UTF-16 code units
// without duplicates (never nil). More entries than field.Dependencies
// allows is invalid_dependencies; an entry ID refuses is
// invalid_dependency.
func Dependencies(v []string) ([]string, error) {
	list := field.Dependencies.Spec()
	if len(v) > list.Limit() {
		return nil, collaberr.Newf(collaberr.InvalidDependencies,
			"A task may depend on at most %d other tasks; got %d", list.Max, len(v))
	}
	out := make([]string, 0, len(v))
	for _, raw := range v {
		id, err := Text(raw, list.Item)
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return SortUnique(out), nil
}
