package canon

import (
	"errors"
	"strings"
	"testing"
)

// TestNestingLimitIsTheSameEverywhere proves Parse, IsCanonical and Append
// all accept exactly maxDepth levels of nesting and refuse one more.
func TestNestingLimitIsTheSameEverywhere(t *testing.T) {
	deepest := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	tooDeep := "[" + deepest + "]"
	if _, err := Parse([]byte(deepest)); err != nil {
		t.Errorf("Parse refused %d levels: %v", maxDepth, err)
	}
	if !IsCanonical([]byte(deepest)) {
		t.Errorf("IsCanonical refused %d levels", maxDepth)
	}
	if out, err := Marshal(nested(maxDepth)); err != nil || string(out) != deepest {
		t.Errorf("Marshal of %d levels failed: %v", maxDepth, err)
	}
	if _, err := Parse([]byte(tooDeep)); err == nil {
		t.Errorf("Parse accepted %d levels", maxDepth+1)
	}
	if IsCanonical([]byte(tooDeep)) {
		t.Errorf("IsCanonical accepted %d levels", maxDepth+1)
	}
	if _, err := Marshal(nested(maxDepth + 1)); !errors.Is(err, ErrTooDeep) {
		t.Errorf("Marshal of %d levels: error %v, want ErrTooDeep", maxDepth+1, err)
	}
}
