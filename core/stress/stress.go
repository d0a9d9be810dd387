// Package stress sizes the heavy tests (many real processes, kill -9
// rounds, concurrent load) from one switch, COLLAB_STRESS:
//
//	unset        the CI size: small, but still large enough to prove the
//	             property (several processes really racing)
//	full         the heavy size, for a soak before a release or after a
//	             change to locking, transactions or the journal
//	(go test -short picks the smallest size when COLLAB_STRESS is unset)
//
// A test may also have its own variable naming one exact size (for
// example COLLAB_STRESS_PROCS); that wins over the switch. A malformed
// value fails the test instead of silently running another size.
package stress

import (
	"os"
	"strconv"
	"testing"
)

// Env is the one switch that selects the heavy size.
const Env = "COLLAB_STRESS"

// Size is one knob's value at each size.
type Size struct {
	Short, CI, Full int
}

// Full reports whether COLLAB_STRESS=full; any value other than "full" or
// empty fails the test, so a typo never runs the small size unnoticed.
func Full(t testing.TB) bool {
	t.Helper()
	switch v := os.Getenv(Env); v {
	case "":
		return false
	case "full":
		return true
	default:
		t.Fatalf("%s=%q: want %q or unset", Env, v, "full")
		return false
	}
}

// N returns the knob's value for this run: the positive integer in the
// variable override when it is set (pass "" for none), else s.Full under
// COLLAB_STRESS=full, s.Short under -short, s.CI otherwise.
func N(t testing.TB, override string, s Size) int {
	t.Helper()
	if override != "" {
		if raw := os.Getenv(override); raw != "" {
			n, err := strconv.Atoi(raw)
			if err != nil || n < 1 {
				t.Fatalf("%s=%q: want a positive integer", override, raw)
			}
			return n
		}
	}
	switch {
	case Full(t):
		return s.Full
	case testing.Short():
		return s.Short
	default:
		return s.CI
	}
}
