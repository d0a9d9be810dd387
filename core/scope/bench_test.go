package scope_test

import (
	"fmt"
	"testing"

	"github.com/agenttool/collab/core/scope"
)

// benchScopes returns n distinct realistic scopes under prefix.
func benchScopes(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s/module%03d/src/Component%03d.tsx", prefix, i, i)
	}
	return out
}

// BenchmarkSetConflicts128x128 is the per-pair cost in projections: both
// tasks' keys are computed beforehand.
func BenchmarkSetConflicts128x128(b *testing.B) {
	left := scope.NewSet(benchScopes("packages/web", 128))
	right := scope.NewSet(benchScopes("packages/api", 128))
	b.ReportAllocs()
	for b.Loop() {
		if len(left.Conflicts(right)) != 0 {
			b.Fatal("unexpected conflict")
		}
	}
}

// BenchmarkConflicts128x128 includes computing all 256 keys.
func BenchmarkConflicts128x128(b *testing.B) {
	left := benchScopes("packages/web", 128)
	right := benchScopes("packages/Wéb", 128)
	b.ReportAllocs()
	for b.Loop() {
		scope.Conflicts(left, right)
	}
}

func BenchmarkNewSet128(b *testing.B) {
	scopes := benchScopes("packages/Wéb", 128)
	b.ReportAllocs()
	for b.Loop() {
		scope.NewSet(scopes)
	}
}

func BenchmarkNormalize128(b *testing.B) {
	scopes := benchScopes("./packages/web/", 128)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := scope.Normalize(scopes); err != nil {
			b.Fatal(err)
		}
	}
}
