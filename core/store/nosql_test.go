package store_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRulesHoldNoSQL keeps the coordination rules above the storage port:
// no non-test file of package store issues SQL or imports database/sql,
// an engine or the engines' shared statements (sqltx), so an engine only
// has to implement the port (port*.go).
func TestRulesHoldNoSQL(t *testing.T) {
	statement := regexp.MustCompile(`"(SELECT|INSERT|UPDATE|DELETE|PRAGMA|BEGIN|CREATE) |\b(ExecContext|QueryContext|QueryRowContext)\(|"database/sql"|"github.com/agenttool/collab/core/store/(sqltx|sqlite|postgres|transfer)"`)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for i, line := range strings.Split(string(b), "\n") {
			if m := statement.FindString(line); m != "" {
				t.Errorf("%s:%d reaches below the seam (%s): move it into an engine method", f, i+1, m)
			}
		}
	}
	if checked < 30 {
		t.Fatalf("checked %d rule files; expected the package's ~45 (wrong directory?)", checked)
	}
}
