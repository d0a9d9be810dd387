package doctor

import (
	"path/filepath"

	"github.com/agenttool/collab/core/dbpath"
	"github.com/agenttool/collab/core/store"
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

// resolve applies the server's rule to env, resolving relative settings
// against cwd the way the server would in that directory.
func resolve(env map[string]string, cwd, who string) Database {
	choice, err := dbpath.Resolve(dbpath.Env{
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Home: func() (string, error) {
			if h := env["HOME"]; h != "" {
				return h, nil
			}
			if h := env["USERPROFILE"]; h != "" {
				return h, nil
			}
			return "", errNoHome(who)
		},
		Cwd: func() (string, error) { return cwd, nil },
	})
	if err != nil {
		return Database{Error: err.Error()}
	}
	d := Database{Path: choice.Path, Source: string(choice.Source)}
	switch {
	case choice.Path == store.MemoryPath:
		d.Memory = true
	case choice.Source == dbpath.FromEnv && !filepath.IsAbs(choice.Path):
		d.Relative = true
		d.Path = filepath.Join(cwd, choice.Path)
	case choice.Source == dbpath.FromXDG && !filepath.IsAbs(env["XDG_DATA_HOME"]):
		d.Relative = true
	}
	return d
}

// errNoHome says that no home directory reaches the named process.
type errNoHome string

// Error names the process without a home.
func (e errNoHome) Error() string { return "no HOME reaches " + string(e) }
