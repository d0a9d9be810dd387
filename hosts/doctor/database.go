package doctor

import (
	"path/filepath"

	"github.com/agenttool/collab/core/place"
)

// Database is a resolved database location and the rule that chose it.
type Database struct {
	Path   string `json:"path"`
	Source string `json:"source"` // AGENTOOL_COLLAB_DB, XDG_DATA_HOME or default
	// Relative is set when the chosen setting is a relative path, so the
	// file depends on the working directory of whoever starts the server.
	Relative bool   `json:"relative,omitempty"`
	Memory   bool   `json:"memory,omitempty"`
	Error    string `json:"error,omitempty"`
}

// resolve applies the server's rule (place.Database) for goos to env,
// resolving relative settings against cwd the way the server would in that
// directory.
func resolve(goos string, env map[string]string, cwd string) Database {
	choice, err := place.Database(place.Map(goos, env, cwd))
	if err != nil {
		return Database{Error: err.Error()}
	}
	d := Database{Path: choice.Path, Source: string(choice.Source)}
	switch {
	case choice.Path == place.Memory:
		d.Memory = true
	case choice.Source == place.FromEnv && !filepath.IsAbs(choice.Path):
		d.Relative = true
		d.Path = filepath.Join(cwd, choice.Path)
	case choice.Source == place.FromXDG && !filepath.IsAbs(env[place.EnvXDGData]):
		d.Relative = true
	}
	return d
}
