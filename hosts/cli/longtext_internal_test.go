package cli

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLongTextComesFromExactlyOnePlace: a flag's value, standard input
// or a file, one final line break dropped; none is no text, two are a
// usage error.
func TestLongTextComesFromExactlyOnePlace(t *testing.T) {
	file := filepath.Join(t.TempDir(), "body.txt")
	if err := os.WriteFile(file, []byte("from the file\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, stdin string
		args        []string
		text        string
		given       bool
		problem     string
	}{
		{"nothing", "", nil, "", false, ""},
		{"the flag", "", []string{"--summary", "short"}, "short", true, ""},
		{"stdin keeps inner line breaks", "line one\nline two\n", []string{"--stdin"}, "line one\nline two", true, ""},
		{"a file", "", []string{"--file", file}, "from the file", true, ""},
		{"two places", "x", []string{"--stdin", "--summary", "y"}, "", false, "give the summary once"},
		{"a missing file", "", []string{"--file", file + ".none"}, "", false, "cannot read the summary"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			l := longTextVar(fs, "summary", "")
			if err := fs.Parse(c.args); err != nil {
				t.Fatal(err)
			}
			text, given, err := l.read(strings.NewReader(c.stdin))
			if c.problem != "" {
				if err == nil || !strings.Contains(err.Error(), c.problem) {
					t.Fatalf("want a problem with %q, got %v", c.problem, err)
				}
				return
			}
			if err != nil || text != c.text || given != c.given {
				t.Fatalf("got %q %v %v, want %q %v", text, given, err, c.text, c.given)
			}
		})
	}
}

// TestListAndCountBoundsRefuseAsTheSchemaWould: a list's length and each
// entry, and a lease length's range, are refused with invalid_input.
func TestListAndCountBoundsRefuseAsTheSchemaWould(t *testing.T) {
	many := make([]string, 129)
	for i := range many {
		many[i] = "p"
	}
	for _, c := range []struct {
		name    string
		err     error
		refusal string
	}{
		{"a list within bounds", second(checkedList("collab_task_create", "path_scopes", []string{"src", "docs"})), ""},
		{"too many entries", second(checkedList("collab_task_create", "path_scopes", many)), "path_scopes must hold at most 128 entries"},
		{"an empty entry", second(checkedList("collab_task_create", "dependencies", []string{"a", ""})), "dependencies[1] must not be empty"},
		{"an entry too long", second(checkedList("collab_task_complete", "evidence_refs", []string{strings.Repeat("r", 2001)})),
			"evidence_refs[0] must be at most 2000 characters"},
		{"a lease length within bounds", checkedCount("collab_task_claim", "ttl_seconds", 30), ""},
		{"a lease length too long", checkedCount("collab_task_claim", "ttl_seconds", 3601), "ttl_seconds must be from 30 to 3600"},
		{"an argument with no bound", checkedCount("collab_task_claim", "nothing", 1), "no bound is stated"},
	} {
		t.Run(c.name, func(t *testing.T) {
			switch {
			case c.refusal == "" && c.err != nil:
				t.Fatalf("refused: %v", c.err)
			case c.refusal != "" && (c.err == nil || !strings.Contains(c.err.Error(), c.refusal)):
				t.Fatalf("want %q, got %v", c.refusal, c.err)
			}
		})
	}
}

func second[T any](_ T, err error) error { return err }
