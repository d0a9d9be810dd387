package hermes

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/agenttool/collab/core/collaberr"
)

// HomeVariable overrides Hermes's home directory.
const HomeVariable = "HERMES_HOME"

// profileName is what Hermes accepts as a profile directory name.
var profileName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// Home returns the directory whose config.yaml and skills/ a profile uses:
// dir (or $HERMES_HOME, or ~/.hermes), or its profiles/<profile> folder
// when profile is set. A named profile must already exist.
func Home(dir, profile string, getenv func(string) string, userHome func() (string, error)) (string, error) {
	if dir == "" {
		dir = getenv(HomeVariable)
	}
	if dir == "" {
		home, err := userHome()
		if err != nil {
			return "", fmt.Errorf("find the Hermes home: %w", err)
		}
		dir = filepath.Join(home, ".hermes")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("resolve the Hermes home: %w", err)
	}
	if profile == "" {
		return dir, nil
	}
	if !profileName.MatchString(profile) {
		return "", collaberr.New(collaberr.HermesProfileInvalid, "A Hermes profile name is letters, digits, '.', '_' and '-'").With("profile", profile)
	}
	p := filepath.Join(dir, "profiles", profile)
	if st, err := os.Stat(p); err != nil || !st.IsDir() {
		return "", collaberr.New(collaberr.HermesProfileNotFound, "No Hermes profile folder exists with that name; create the profile with Hermes first").
			With("profile", profile).With("path", p)
	}
	return p, nil
}

// ConfigPath is a profile's config.yaml.
func ConfigPath(home string) string { return filepath.Join(home, "config.yaml") }

// SkillPath is where a profile keeps the named skill's SKILL.md.
func SkillPath(home, skill string) string { return filepath.Join(home, "skills", skill, "SKILL.md") }
