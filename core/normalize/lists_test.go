package normalize_test

import (
	"slices"
	"testing"

	"github.com/agenttool/collab/core/normalize"
)

func TestEvidenceRefsAreTrimmedSortedByUTF16AndUnique(t *testing.T) {
	in := []string{" report:\uFF5E ", "report:\U0001F600", "artifact:b", "artifact:b ", "Event:1"}
	want := []string{"Event:1", "artifact:b", "report:\U0001F600", "report:\uFF5E"}
	got, err := normalize.EvidenceRefs(in)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("EvidenceRefs = %+q, %v; want %+q", got, err, want)
	}
	if got, err := normalize.EvidenceRefs(nil); err != nil || got == nil || len(got) != 0 {
		t.Errorf("EvidenceRefs(nil) = %#v, %v", got, err)
	}
}

func TestEvidenceRefsRefusals(t *testing.T) {
	_, err := normalize.EvidenceRefs(make([]string, 129))
	wantRefusal(t, err, "invalid_evidence_refs", "at most 128")
	_, err = normalize.EvidenceRefs([]string{"artifact:a", " "})
	wantRefusal(t, err, "invalid_evidence_ref", "empty")
	_, err = normalize.EvidenceRefs([]string{"event:" + repeat("9", 1995)})
	wantRefusal(t, err, "invalid_evidence_ref", "longer than 2000")
}

func TestDependenciesAreIDsSortedAndUnique(t *testing.T) {
	got, err := normalize.Dependencies([]string{"task_b", " task_a", "task_b", "Task_c"})
	want := []string{"Task_c", "task_a", "task_b"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Dependencies = %q, %v; want %q", got, err, want)
	}
}

func TestDependenciesRefusals(t *testing.T) {
	many := make([]string, 129)
	for i := range many {
		many[i] = "task"
	}
	_, err := normalize.Dependencies(many)
	wantRefusal(t, err, "invalid_dependencies", "at most 128")
	if _, err := normalize.Dependencies(many[:128]); err != nil {
		t.Errorf("128 dependencies refused: %v", err)
	}
	_, err = normalize.Dependencies([]string{"task a"})
	wantRefusal(t, err, "invalid_dependency", "ASCII letters")
	_, err = normalize.Dependencies([]string{""})
	wantRefusal(t, err, "invalid_dependency", "empty")
}
