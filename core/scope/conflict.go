package scope

import (
	"slices"

	"golang.org/x/text/unicode/norm"

	"github.com/agenttool/collab/core/normalize"
)

// Key returns the form of scope that overlap checks compare: composed to
// Unicode NFC, then lower-cased as JavaScript's toLowerCase does (see
// normalize.LowerJS). Two scopes that differ only in case or in composed
// versus decomposed accents get the same key.
func Key(scope string) string {
	return normalize.LowerJS(norm.NFC.String(scope))
}

// Set is a task's scopes together with their keys, computed once so that a
// task can be compared with many others cheaply.
type Set struct {
	scopes []string
	keys   []string
}

// NewSet computes the keys of scopes. It keeps its own copy of the slice.
func NewSet(scopes []string) Set {
	keys := make([]string, len(scopes))
	for i, s := range scopes {
		keys[i] = Key(s)
	}
	return Set{scopes: slices.Clone(scopes), keys: keys}
}

// Scopes returns a copy of the scopes the set was built from, in order.
func (s Set) Scopes() []string { return slices.Clone(s.scopes) }

// Len returns the number of scopes in the set.
func (s Set) Len() int { return len(s.scopes) }

// Conflicts returns every pair [a, b] of a scope a of s and a scope b of
// other that overlap, as the scopes were given, in the order of s then of
// other; nil when none overlap. Two scopes overlap when their keys are
// equal or one key is a whole-segment prefix of the other: "src/app"
// overlaps "src/app/x" and "SRC/App", but not "src/application".
func (s Set) Conflicts(other Set) [][2]string {
	var pairs [][2]string
	for i, ka := range s.keys {
		for j, kb := range other.keys {
			if keysOverlap(ka, kb) {
				pairs = append(pairs, [2]string{s.scopes[i], other.scopes[j]})
			}
		}
	}
	return pairs
}

// Overlaps reports whether any scope of s overlaps any scope of other,
// stopping at the first overlap.
func (s Set) Overlaps(other Set) bool {
	for _, ka := range s.keys {
		for _, kb := range other.keys {
			if keysOverlap(ka, kb) {
				return true
			}
		}
	}
	return false
}

// Conflicts is NewSet(left).Conflicts(NewSet(right)), for one-off checks.
// Callers comparing one task with many should build each Set once.
func Conflicts(left, right []string) [][2]string {
	return NewSet(left).Conflicts(NewSet(right))
}

// keysOverlap reports whether a and b are equal or one is the other
// followed by "/" and more.
func keysOverlap(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) == len(b) {
		return a == b
	}
	return b[len(a)] == '/' && b[:len(a)] == a
}
