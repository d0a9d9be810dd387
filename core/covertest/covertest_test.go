package covertest

import (
	"flag"
	"slices"
	"testing"
)

// The flag is set on the test binary only by a coverage run; the test
// sets it by hand (and restores it) to see each source win as documented.
func TestDirPrefersTheTestFlagThenGOCOVERDIR(t *testing.T) {
	f := flag.Lookup("test.gocoverdir")
	if f == nil {
		t.Skip("skipping: this test binary has no -test.gocoverdir flag")
	}
	old := f.Value.String()
	t.Cleanup(func() { f.Value.Set(old) })
	cases := []struct {
		name, flag, env, want string
		build                 bool
	}{
		{"not a coverage run", "", "", "", false},
		{"GOCOVERDIR only", "", "/env", "/env", true},
		{"the flag wins", "/flag", "/env", "/flag", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f.Value.Set(c.flag)
			t.Setenv("GOCOVERDIR", c.env)
			if got := Dir(); got != c.want {
				t.Errorf("Dir() = %q, want %q", got, c.want)
			}
			var wantEnv []string
			if c.want != "" {
				wantEnv = []string{"GOCOVERDIR=" + c.want}
			}
			if got := Env(); !slices.Equal(got, wantEnv) {
				t.Errorf("Env() = %q, want %q", got, wantEnv)
			}
			if got := len(BuildFlags()) > 0; got != c.build {
				t.Errorf("BuildFlags() = %q, want some: %v", BuildFlags(), c.build)
			}
		})
	}
}
