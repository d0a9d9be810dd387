package scope_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/scope"
)

var loadTable = scope.LoadTable

func TestNormalizeContractExamples(t *testing.T) {
	cases := []struct {
		name string
		in   []string
		want []string
	}{
		{"leading ./, trailing / and // collapse to one scope", []string{"./src/app/", "src//app", "src/z"}, []string{"src/app", "src/z"}},
		{"parent segment resolves lexically", []string{"x/../y"}, []string{"y"}},
		{"leading space is kept", []string{" sp"}, []string{" sp"}},
		{"glob characters are literal", []string{"z/**"}, []string{"z/**"}},
		{"only one leading ./ is removed before normalising", []string{"././a"}, []string{"a"}},
		{"dot segments vanish", []string{"a/./b/./"}, []string{"a/b"}},
		{"case and accents are stored as given", []string{"Src/Caf\u00e9", "src/cafe\u0301"}, []string{"Src/Caf\u00e9", "src/cafe\u0301"}},
		{"sorted by UTF-16 code units", []string{"\uFF5E", "\U0001F600", "b", "B"}, []string{"B", "b", "\U0001F600", "\uFF5E"}},
		{"nil is an empty list", nil, []string{}},
		{"./ followed by / leaves a leading / (contract order)", []string{".//a"}, []string{"/a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := scope.Normalize(c.in)
			if err != nil || got == nil || !slices.Equal(got, c.want) {
				t.Errorf("Normalize(%q) = %#v, %v; want %q", c.in, got, err, c.want)
			}
		})
	}
}

func TestNormalizeRefusesMalformedScopes(t *testing.T) {
	cases := []struct{ name, scope string }{
		{"empty", ""},
		{"absolute", "/etc/passwd"},
		{"backslash", "src\\app"},
		{"NUL", "src/\x00"},
		{"501 characters", strings.Repeat("a", 501)},
		{"251 emoji are 502 UTF-16 units", strings.Repeat("\U0001F98A", 251)},
		{"malformed UTF-8", "src/\xff"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := scope.Normalize([]string{"ok", c.scope, "/also-bad"})
			wantScopeRefusal(t, err, "invalid_path_scope", c.scope, "relative")
		})
	}
}

func TestNormalizeRefusesRootAndParentScopes(t *testing.T) {
	for _, s := range []string{".", "./", "..", "../x", "a/..", "a/../..", "./.", ".//", "x/./../", "a/b/../../../c"} {
		t.Run(s, func(t *testing.T) {
			_, err := scope.Normalize([]string{"ok", s})
			wantScopeRefusal(t, err, "invalid_path_scope", s, "whole repository")
		})
	}
}

func TestNormalizeLimitsCountAndCombinedLength(t *testing.T) {
	many := make([]string, 129)
	for i := range many {
		many[i] = "src"
	}
	_, err := scope.Normalize(many)
	wantScopeRefusal(t, err, "invalid_path_scopes", "", "at most 128")
	if got, err := scope.Normalize(many[:128]); err != nil || !slices.Equal(got, []string{"src"}) {
		t.Errorf("128 scopes: %q, %v", got, err)
	}

	// 32 scopes of 500 units make exactly 16000 (allowed); one more unit is not.
	long := make([]string, 32)
	for i := range long {
		long[i] = string(rune('a'+i%26)) + strings.Repeat("x", 499)
	}
	if _, err := scope.Normalize(long); err != nil {
		t.Errorf("16000 combined units refused: %v", err)
	}
	_, err = scope.Normalize(append(long, "y"))
	wantScopeRefusal(t, err, "invalid_path_scopes", "", "16000")
}

func TestNormalizeChecksScopesInOrder(t *testing.T) {
	// The running total is raw lengths (./ and trailing / count) and is
	// checked before the later scope is normalised.
	long := make([]string, 32)
	for i := range long {
		long[i] = "./" + strings.Repeat("x", 497) + "/"
	}
	_, err := scope.Normalize(append(long, ".."))
	wantScopeRefusal(t, err, "invalid_path_scopes", "", "16000")
	// A root scope before the limit is reached is reported first.
	_, err = scope.Normalize(append([]string{".."}, long...))
	wantScopeRefusal(t, err, "invalid_path_scope", "..", "whole repository")
}

func TestNormalizeMatchesContractStepsOnNodePaths(t *testing.T) {
	var table struct {
		Cases [][3]*string `json:"cases"`
	}
	loadTable(t, "scope_pipeline.json", &table)
	for _, c := range table.Cases {
		raw := *c[0]
		got, err := scope.Normalize([]string{raw})
		switch {
		case c[1] != nil:
			if err != nil || len(got) != 1 || got[0] != *c[1] {
				t.Errorf("Normalize(%q) = %q, %v; Node steps give %q", raw, got, err, *c[1])
			}
		case *c[2] == "shape":
			wantScopeRefusal(t, err, "invalid_path_scope", raw, "relative")
		default:
			wantScopeRefusal(t, err, "invalid_path_scope", raw, "whole repository")
		}
	}
}

// wantScopeRefusal fails unless err is a refusal with code, a message
// mentioning hint and, when scope is not empty, exactly the detail
// {scope: scope}.
func wantScopeRefusal(t *testing.T, err error, code, scopeDetail, hint string) {
	t.Helper()
	ce, ok := collaberr.As(err)
	if !ok || ce.Code != code {
		t.Fatalf("got %v, want %s", err, code)
	}
	if !strings.Contains(ce.Message, hint) {
		t.Fatalf("message %q does not mention %q", ce.Message, hint)
	}
	if code == "invalid_path_scopes" {
		if len(ce.Details) != 0 {
			t.Fatalf("%s carries details %v; the contract gives none", code, ce.Details)
		}
		return
	}
	if len(ce.Details) != 1 || ce.Details[0].Key != "scope" || ce.Details[0].Value != scopeDetail {
		t.Fatalf("details = %v, want scope=%q", ce.Details, scopeDetail)
	}
}
