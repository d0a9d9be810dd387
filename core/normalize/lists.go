package normalize

import "github.com/agenttool/collab/core/collaberr"

// EvidenceRefs returns the trimmed evidence references sorted by UTF-16 code
// units without duplicates (never nil). More than MaxEvidenceRefs entries
// is invalid_evidence_refs; an entry CleanText refuses (MaxEvidenceRefLen)
// is invalid_evidence_ref. The kind:id syntax is checked elsewhere.
func EvidenceRefs(v []string) ([]string, error) {
	if len(v) > MaxEvidenceRefs {
		return nil, collaberr.Newf(collaberr.InvalidEvidenceRefs,
			"At most %d evidence references are allowed; got %d", MaxEvidenceRefs, len(v))
	}
	out := make([]string, 0, len(v))
	for _, raw := range v {
		ref, err := CleanText(raw, "evidence_ref", MaxEvidenceRefLen)
		if err != nil {
			return nil, err
		}
		out = append(out, ref)
	}
	return SortUnique(out), nil
}

// Dependencies returns the task's dependency IDs sorted by UTF-16 code units
// without duplicates (never nil). More than MaxDependencies entries is
// invalid_dependencies; an entry ID refuses is invalid_dependency.
func Dependencies(v []string) ([]string, error) {
	if len(v) > MaxDependencies {
		return nil, collaberr.Newf(collaberr.InvalidDependencies,
			"A task may depend on at most %d other tasks; got %d", MaxDependencies, len(v))
	}
	out := make([]string, 0, len(v))
	for _, raw := range v {
		id, err := ID(raw, "dependency")
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return SortUnique(out), nil
}
