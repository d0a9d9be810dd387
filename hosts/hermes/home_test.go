package hermes

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
)

func TestHomeResolution(t *testing.T) {
	base := t.TempDir()
	if err := os.MkdirAll(filepath.Join(base, "env", "profiles", "work"), 0o700); err != nil {
		t.Fatal(err)
	}
	userHome := func() (string, error) { return filepath.Join(base, "user"), nil }
	tests := []struct {
		name, dir, profile, env, want, code string
	}{
		{name: "default", want: filepath.Join(base, "user", ".hermes")},
		{name: "environment", env: filepath.Join(base, "env"), want: filepath.Join(base, "env")},
		{name: "flag beats environment", dir: filepath.Join(base, "flag"), env: filepath.Join(base, "env"), want: filepath.Join(base, "flag")},
		{name: "profile", profile: "work", env: filepath.Join(base, "env"), want: filepath.Join(base, "env", "profiles", "work")},
		{name: "missing profile", profile: "play", env: filepath.Join(base, "env"), code: "hermes_profile_not_found"},
		{name: "profile escaping the home", profile: "../x", env: filepath.Join(base, "env"), code: "hermes_profile_invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == HomeVariable {
					return tt.env
				}
				return ""
			}
			got, err := Home(tt.dir, tt.profile, getenv, userHome)
			if tt.code != "" {
				if ce, ok := collaberr.As(err); !ok || ce.Code != tt.code {
					t.Fatalf("got %q, %v; want %s", got, err, tt.code)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestHomeReportsAMissingUserHome(t *testing.T) {
	_, err := Home("", "", func(string) string { return "" }, func() (string, error) { return "", errors.New("no home") })
	if err == nil {
		t.Fatal("want an error without any home")
	}
}
