package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records the first failure instead of
// stopping the goroutine.
type recorder struct {
	testing.TB
	failure string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

func (r *recorder) Fatalf(format string, args ...any) {
	if r.failure == "" {
		r.failure = fmt.Sprintf(format, args...)
	}
}

func TestCheckPassesOnlyWhenTheFileHoldsExactlyWhatIsGenerated(t *testing.T) {
	if Updating() {
		t.Skip("this test proves the comparison; it cannot run while updating")
	}
	dir := t.TempDir()
	current := filepath.Join(dir, "current.md")
	if err := os.WriteFile(current, []byte("same\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, want, failure string
	}{
		{"current", current, "same\n", ""},
		{"stale by one byte", current, "same", "is stale; run go generate ./..."},
		{"missing", filepath.Join(dir, "missing.md"), "x", "is missing"},
	} {
		r := &recorder{TB: t}
		Check(r, tc.path, []byte(tc.want))
		if tc.failure == "" && r.failure != "" || !strings.Contains(r.failure, tc.failure) {
			t.Errorf("%s: failure %q, want one containing %q", tc.name, r.failure, tc.failure)
		}
	}
}
