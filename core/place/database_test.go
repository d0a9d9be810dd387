package place_test

import (
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/place"
)

// abs turns a slash path into an absolute one on the host (Windows adds a
// volume), so the tables hold on every OS.
func abs(t *testing.T, slash string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.FromSlash(slash))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDatabaseRulePerOS(t *testing.T) {
	home, xdg, cwd := abs(t, "/home/u"), abs(t, "/xdg"), abs(t, "/work")
	tail := filepath.Join("agenttool", "collab.sqlite")
	dflt := filepath.Join(home, ".local", "share", tail)
	cases := []struct {
		name   string
		goos   string
		env    map[string]string
		want   string
		source place.Source
	}{
		{"AGENTOOL_COLLAB_DB wins verbatim", "linux", map[string]string{"AGENTOOL_COLLAB_DB": "/db/x.sqlite", "XDG_DATA_HOME": xdg, "HOME": home}, "/db/x.sqlite", place.FromEnv},
		{"a relative AGENTOOL_COLLAB_DB stays relative", "linux", map[string]string{"AGENTOOL_COLLAB_DB": "rel/./x.db", "HOME": home}, "rel/./x.db", place.FromEnv},
		{"an empty AGENTOOL_COLLAB_DB is used, not skipped", "linux", map[string]string{"AGENTOOL_COLLAB_DB": "", "XDG_DATA_HOME": xdg, "HOME": home}, "", place.FromEnv},
		{":memory: selects the in-memory database", "windows", map[string]string{"AGENTOOL_COLLAB_DB": ":memory:"}, place.Memory, place.FromEnv},
		{"XDG_DATA_HOME", "linux", map[string]string{"XDG_DATA_HOME": xdg, "HOME": home}, filepath.Join(xdg, tail), place.FromXDG},
		{"XDG_DATA_HOME with a trailing slash is cleaned", "linux", map[string]string{"XDG_DATA_HOME": xdg + string(filepath.Separator), "HOME": home}, filepath.Join(xdg, tail), place.FromXDG},
		{"a relative XDG_DATA_HOME is resolved against the working directory", "linux", map[string]string{"XDG_DATA_HOME": "data", "HOME": home}, filepath.Join(cwd, "data", tail), place.FromXDG},
		{"XDG_DATA_HOME on darwin too", "darwin", map[string]string{"XDG_DATA_HOME": xdg}, filepath.Join(xdg, tail), place.FromXDG},
		{"XDG_DATA_HOME on windows too", "windows", map[string]string{"XDG_DATA_HOME": xdg}, filepath.Join(xdg, tail), place.FromXDG},
		{"an empty XDG_DATA_HOME falls back to the home default", "linux", map[string]string{"XDG_DATA_HOME": "", "HOME": home}, dflt, place.FromDefault},
		{"linux default", "linux", map[string]string{"HOME": home}, dflt, place.FromDefault},
		{"darwin default is ~/.local/share, not Application Support", "darwin", map[string]string{"HOME": home}, dflt, place.FromDefault},
		{"windows default reads USERPROFILE, not HOME", "windows", map[string]string{"USERPROFILE": home, "HOME": abs(t, "/elsewhere")}, dflt, place.FromDefault},
		{"a HOME with a trailing slash is cleaned", "linux", map[string]string{"HOME": home + string(filepath.Separator)}, dflt, place.FromDefault},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := place.Database(place.Map(tc.goos, tc.env, cwd))
			if err != nil {
				t.Fatalf("Database: %v", err)
			}
			if got.Path != tc.want || got.Source != tc.source {
				t.Fatalf("Database = %q from %s, want %q from %s", got.Path, got.Source, tc.want, tc.source)
			}
		})
	}
}

func TestDatabaseRuleWithoutAHomeIsAnError(t *testing.T) {
	cases := []struct {
		name string
		goos string
		env  map[string]string
	}{
		{"HOME unset", "linux", map[string]string{}},
		{"HOME empty", "darwin", map[string]string{"HOME": ""}},
		{"windows ignores HOME", "windows", map[string]string{"HOME": "/home/u"}},
		{"USERPROFILE empty", "windows", map[string]string{"USERPROFILE": ""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := place.Database(place.Map(tc.goos, tc.env, "/work"))
			if err == nil {
				t.Fatalf("Database = %+v, want an error naming the settings to use", got)
			}
		})
	}
}

func TestDatabaseRuleNeedsTheWorkingDirectoryOnlyForARelativeXDG(t *testing.T) {
	env := place.Env{GOOS: "linux", Lookup: place.Map("linux", map[string]string{"XDG_DATA_HOME": "data"}, "").Lookup}
	if got, err := place.Database(env); err == nil {
		t.Fatalf("Database = %+v without a working directory, want an error", got)
	}
	env.Lookup = place.Map("linux", map[string]string{"HOME": abs(t, "/home/u")}, "").Lookup
	if _, err := place.Database(env); err != nil {
		t.Fatalf("Database with HOME and no working directory: %v", err)
	}
}

func TestHomeVariablePerOS(t *testing.T) {
	for goos, want := range map[string]string{"linux": "HOME", "darwin": "HOME", "freebsd": "HOME", "": "HOME", "windows": "USERPROFILE", "plan9": "home"} {
		if got := place.HomeVar(goos); got != want {
			t.Errorf("HomeVar(%q) = %q, want %q", goos, got, want)
		}
	}
}
