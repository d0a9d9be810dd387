package normalize

import (
	"strings"
	"testing"
)

// IsID must agree with ID on every input: true exactly when ID accepts the
// value unchanged.
func TestIsIDAgreesWithID(t *testing.T) {
	for _, v := range []string{"task_1", "a", "A.b:c-d_e", "", " x", "x ", "-x", "x y", "é", "x\n",
		strings.Repeat("a", MaxIDLength), strings.Repeat("a", MaxIDLength+1)} {
		id, err := ID(v, "task_id")
		want := err == nil && id == v
		if got := IsID(v); got != want {
			t.Errorf("IsID(%q) = %v, ID says %v", v, got, want)
		}
	}
}
