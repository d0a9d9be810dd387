package scope_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/normalize"
	"github.com/agenttool/collab/core/scope"
)

func FuzzNormalize(f *testing.F) {
	f.Add("./src/app/", "src//app", "src/z")
	f.Add("x/../y", "a/..", " sp")
	f.Add(".//a", "z/**", "a/b/../../c")
	f.Add("", "/", "\\")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		in := []string{a, b, c}
		out, err := scope.Normalize(in)
		if err != nil {
			return
		}
		if !slices.Equal(out, normalize.SortUnique(out)) {
			t.Fatalf("Normalize(%q) = %q is not sorted and unique", in, out)
		}
		quirk := false
		for _, s := range out {
			if strings.HasPrefix(s, "/") {
				// Only "./" followed by "/" can produce this (see Normalize).
				if !anyHasPrefix(in, ".//") {
					t.Fatalf("Normalize(%q) produced absolute %q", in, s)
				}
				quirk = true
				s = strings.TrimLeft(s, "/")
			}
			checkCleanScope(t, in, s)
		}
		if quirk {
			return
		}
		again, err := scope.Normalize(out)
		if err != nil || !slices.Equal(again, out) {
			t.Fatalf("Normalize is not idempotent: %q -> %q -> %q, %v", in, out, again, err)
		}
	})
}

// checkCleanScope fails unless s is a non-empty run of segments with no
// empty, "." or ".." segment.
func checkCleanScope(t *testing.T, in []string, s string) {
	t.Helper()
	for _, seg := range strings.Split(s, "/") {
		if seg == "" || seg == "." || seg == ".." {
			t.Fatalf("Normalize(%q) produced %q with segment %q", in, s, seg)
		}
	}
}

func anyHasPrefix(list []string, prefix string) bool {
	return slices.ContainsFunc(list, func(s string) bool { return strings.HasPrefix(s, prefix) })
}

func FuzzConflicts(f *testing.F) {
	f.Add("src/app", "src/application")
	f.Add("\u039f\u0394\u039f\u03a3/x", "\u03bf\u03b4\u03bf\u03c2")
	f.Add("cafe\u0301", "CAF\u00c9/menu")
	f.Add("\u0130", "i\u0307/x")
	f.Fuzz(func(t *testing.T, a, b string) {
		ab := len(scope.Conflicts([]string{a}, []string{b})) > 0
		ba := len(scope.Conflicts([]string{b}, []string{a})) > 0
		if ab != ba {
			t.Fatalf("%q conflicts with %q: %v, reverse: %v", a, b, ab, ba)
		}
		if out, err := scope.Normalize([]string{a}); err == nil {
			if got := scope.Conflicts(out, out); !slices.Equal(got, [][2]string{{out[0], out[0]}}) {
				t.Fatalf("normalised scope %q does not conflict with itself: %q", out[0], got)
			}
		}
	})
}
