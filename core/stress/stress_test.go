package stress

import (
	"testing"
)

// fatalTB records a Fatalf instead of ending the test, so the refusal of
// a malformed value can be observed.
type fatalTB struct {
	testing.TB
	failed bool
}

func (f *fatalTB) Helper()               {}
func (f *fatalTB) Fatalf(string, ...any) { f.failed = true }

func TestNPicksTheSizeTheEnvironmentAsksFor(t *testing.T) {
	size := Size{Short: 1, CI: 4, Full: 16}
	unset := size.CI // the size when neither the switch nor a knob is set
	if testing.Short() {
		unset = size.Short
	}
	cases := []struct {
		name, stress, override string
		want                   int
		fails                  bool
	}{
		{"CI size by default (short under -short)", "", "", unset, false},
		{"full size", "full", "", size.Full, false},
		{"an exact size wins over the switch", "full", "3", 3, false},
		{"an exact size alone", "", "7", 7, false},
		{"a typo in the switch fails", "ful", "", 0, true},
		{"zero is not a size", "", "0", 0, true},
		{"words are not a size", "", "many", 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(Env, c.stress)
			t.Setenv("COLLAB_STRESS_TEST_KNOB", c.override)
			tb := &fatalTB{TB: t}
			got := N(tb, "COLLAB_STRESS_TEST_KNOB", size)
			if tb.failed != c.fails {
				t.Fatalf("failed = %v, want %v", tb.failed, c.fails)
			}
			if !c.fails && got != c.want {
				t.Errorf("N = %d, want %d", got, c.want)
			}
		})
	}
}
