package normalize_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/normalize"
)

func utf8Valid(s string) bool { return utf8.ValidString(s) }

// loadTable decodes testdata/name into v (shared with the white-box tests).
var loadTable = normalize.LoadTable

// wantRefusal fails unless err is a refusal with code whose message
// mentions hint (case-insensitive), the word that tells which rule fired.
func wantRefusal(t *testing.T, err error, code, hint string) {
	t.Helper()
	ce, ok := collaberr.As(err)
	if !ok {
		t.Fatalf("got %v, want refusal %s", err, code)
	}
	if ce.Code != code {
		t.Fatalf("got code %s (%s), want %s", ce.Code, ce.Message, code)
	}
	if !strings.Contains(strings.ToLower(ce.Message), strings.ToLower(hint)) {
		t.Fatalf("message %q does not mention %q", ce.Message, hint)
	}
	if len(ce.Details) != 0 {
		t.Fatalf("refusal %s carries details %v; the contract gives it none", code, ce.Details)
	}
}

// repeat returns s repeated n times.
func repeat(s string, n int) string { return strings.Repeat(s, n) }
