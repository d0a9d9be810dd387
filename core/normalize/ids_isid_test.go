package normalize

import (
	"strings"
	"testing"

	"github.com/agenttool/collab/core/field"
)

// field.IsID must agree with ID on every input: true exactly when ID
// accepts the value unchanged, so callers that refuse with a code of their
// own (delivery marks, the HTTP resume header) apply the same rule.
func TestIsIDAgreesWithID(t *testing.T) {
	for _, v := range []string{"task_1", "a", "A.b:c-d_e", "", " x", "x ", "-x", "x y", "é", "x\n",
		strings.Repeat("a", MaxIDLength), strings.Repeat("a", MaxIDLength+1)} {
		id, err := ID(v, "task_id")
		want := err == nil && id == v
		if got := field.IsID(v); got != want {
			t.Errorf("field.IsID(%q) = %v, ID says %v", v, got, want)
		}
	}
}
