package normalize_test

import (
	"strings"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/normalize"
)

// Text and Optional apply a row of the field table: its bound, its name
// in the refusal, and for identifiers the identifier rule.
func TestTextAppliesTheRow(t *testing.T) {
	cases := []struct {
		name string
		in   string
		f    field.Field
		want string
		code collaberr.Code // "" when accepted
	}{
		{"trimmed", "  a title ", field.Title, "a title", ""},
		{"at the bound", strings.Repeat("x", 300), field.Title, strings.Repeat("x", 300), ""},
		{"over the bound", strings.Repeat("x", 301), field.Title, "", collaberr.InvalidTitle},
		{"empty", " ", field.Summary, "", collaberr.InvalidSummary},
		{"the release summary is shorter", strings.Repeat("x", 2001), field.ReleaseSummary, "", collaberr.InvalidSummary},
		{"the completion summary is longer", strings.Repeat("x", 2001), field.Summary, strings.Repeat("x", 2001), ""},
		{"the store takes a longer body than the schema states", strings.Repeat("x", 9000), field.Body, strings.Repeat("x", 9000), ""},
		{"identifier", "task-1", field.TaskID, "task-1", ""},
		{"identifier rule", "task 1", field.TaskID, "", collaberr.InvalidTaskID},
		{"no bound", strings.Repeat("x", 5000), field.RootPath, strings.Repeat("x", 5000), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := normalize.Text(c.in, c.f)
			if c.code != "" {
				if !collaberr.HasCode(err, c.code) {
					t.Fatalf("Text = %q, %v; want %s", got, err, c.code)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("Text = %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestOptionalLeavesAbsenceAbsent(t *testing.T) {
	blank := " \t"
	for _, v := range []*string{nil, &blank} {
		if got, err := normalize.Optional(v, field.Description); got != nil || err != nil {
			t.Errorf("Optional(%v) = %v, %v; want nil, nil", v, got, err)
		}
	}
	long := strings.Repeat("x", 8001)
	if _, err := normalize.Optional(&long, field.Description); !collaberr.HasCode(err, collaberr.InvalidDescription) {
		t.Errorf("Optional(8001 characters) = %v; want invalid_description", err)
	}
}
