package place

import (
	"errors"
	"fmt"
	"path/filepath"
)

// Memory is the database path that selects a private in-memory database,
// which has no folder and so no files beside it.
const Memory = ":memory:"

// Source says which rule chose the database path.
type Source string

// The database rules, in the order they are tried.
const (
	FromEnv     Source = EnvDB
	FromXDG     Source = EnvXDGData
	FromDefault Source = "default"
)

// DatabaseChoice is a resolved database location and the rule that chose it.
type DatabaseChoice struct {
	// Path is AGENTOOL_COLLAB_DB verbatim (possibly relative, possibly
	// Memory), or an absolute default.
	Path   string
	Source Source
}

// Database applies the database rule to env:
//
//  1. AGENTOOL_COLLAB_DB when it is set at all, verbatim (even empty; the
//     store resolves it against the working directory when it opens it);
//  2. else $XDG_DATA_HOME/agenttool/collab.sqlite when XDG_DATA_HOME is
//     non-empty, a relative value resolved against env's working directory;
//  3. else <home>/.local/share/agenttool/collab.sqlite, the home directory
//     found by Env.Home.
//
// The default is the same folder on every OS: a platform-native data
// folder (~/Library/Application Support, %AppData%) would split the
// journal between implementations on macOS and Windows.
func Database(env Env) (DatabaseChoice, error) {
	if v, ok := env.lookup(EnvDB); ok {
		return DatabaseChoice{Path: v, Source: FromEnv}, nil
	}
	if v := env.Get(EnvXDGData); v != "" {
		if !filepath.IsAbs(v) {
			cwd, err := env.cwd()
			if err != nil {
				return DatabaseChoice{}, fmt.Errorf("resolve the relative %s: %w", EnvXDGData, err)
			}
			v = filepath.Join(cwd, v)
		}
		return DatabaseChoice{Path: filepath.Join(v, dataFolder, databaseName), Source: FromXDG}, nil
	}
	home, err := env.Home()
	if err != nil {
		return DatabaseChoice{}, errors.New("cannot find the home directory for the default database; set " + EnvDB + " or " + EnvXDGData)
	}
	return DatabaseChoice{Path: filepath.Join(home, ".local", "share", dataFolder, databaseName), Source: FromDefault}, nil
}

// dataFolder is the folder, inside the data home, shared by agenttool tools.
const dataFolder = "agenttool"

// databaseName is the default database file's name.
const databaseName = "collab.sqlite"
