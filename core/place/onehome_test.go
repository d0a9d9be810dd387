package place_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// owned are string literals only core/place may spell: collab's variable
// names and the names of the files it keeps. Anywhere else they would be a
// second home for a rule.
var owned = []string{
	`"AGENTOOL_COLLAB_`, `"XDG_DATA_HOME"`, `"XDG_STATE_HOME"`, `"USERPROFILE"`, `"COLLAB_PERSON"`, `"NO_COLOR"`,
	`"collab-sessions"`, `"collab-tokens.json"`, `"collab-remote"`, `"collab-zerone-anchors.json"`,
	`".search"`, `"collab-person"`,
}

// TestEnvironmentAndPathRulesHaveOneHome fails when non-test Go code
// outside core/place spells a variable name or file name that core/place
// owns, instead of using its constant or rule.
func TestEnvironmentAndPathRulesHaveOneHome(t *testing.T) {
	root := filepath.Join("..", "..")
	self, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			abs, _ := filepath.Abs(path)
			switch {
			case abs == self, d.Name() == "testdata", d.Name() == "node_modules", strings.HasPrefix(d.Name(), ".") && path != root:
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, lit := range owned {
			if strings.Contains(string(data), lit) {
				t.Errorf("%s spells %s; use core/place", path, lit)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
