package cli

import (
	"strings"
	"testing"
)

// TestCheckedRefusesAsTheToolSchemaWould drives the person's argument
// check through each kind of bound and the JSON text rule.
func TestCheckedRefusesAsTheToolSchemaWould(t *testing.T) {
	for _, c := range []struct {
		name, tool string
		args       map[string]string
		refusal    string
	}{
		{"within bounds", "collab_report_append", map[string]string{"kind": "proposal", "body": "ok"}, ""},
		{"enum", "collab_report_append", map[string]string{"kind": "bogus", "body": "ok"}, "kind is not one of the allowed values"},
		{"empty", "collab_decision_record", map[string]string{"topic": "", "decision": "d"}, "topic must not be empty"},
		{"too long, counted in UTF-16", "collab_decision_record", map[string]string{"topic": strings.Repeat("😀", 251), "decision": "d"},
			"topic must be at most 500 characters"},
		{"two at once, in schema order", "collab_decision_record", map[string]string{"topic": "t", "decision": "", "rationale": strings.Repeat("r", 4001)},
			"decision must not be empty; rationale must be at most 4000 characters"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := checked(c.tool, c.args)
			if c.refusal == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			want := "refused (invalid_input): Input validation error: Invalid arguments for tool " + c.tool + ": " + c.refusal
			if err == nil || !strings.HasPrefix(err.Error(), want+";") {
				t.Fatalf("got %v, want %q", err, want)
			}
		})
	}
	got, err := checked("collab_report_append", map[string]string{"kind": "proposal", "body": "a\xff\xfeb"})
	if err != nil || got["body"] != "a\uFFFD\uFFFDb" {
		t.Fatalf("invalid UTF-8 arrives as %q (%v), want one U+FFFD per byte", got["body"], err)
	}
}
