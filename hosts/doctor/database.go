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
	Relative bool `json:"relative,omitempty"`
	Memory   bool `json:"memory,omitempty"`
	// Postgres is set when the setting is a PostgreSQL URL: Path is then
	// the URL without its password, and LocalFolder the folder that holds
	// the files a SQLite database keeps beside it.
	Postgres    bool   `json:"postgres,omitempty"`
	LocalFolder string `json:"local_folder,omitempty"`
	Error       string `json:"error,omitempty"`
	// url is the setting itself, password included: used to connect,
	// never shown.
	url string
	// env places the local folder, as the resolved environment would.
	env place.Env
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
	if place.IsPostgres(choice.Path) {
		d.Postgres, d.Path, d.url, d.env = true, place.RedactPostgres(choice.Path), choice.Path, place.Map(goos, env, cwd)
		if b, err := place.BesideDatabaseIn(d.env, d.url); err == nil {
			d.LocalFolder = b.Dir()
		}
		return d
	}
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
