package setup

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/hosts/hermes"
	"github.com/agenttool/collab/hosts/plugin"
	"github.com/agenttool/collab/hosts/render"
)

// HermesOptions are the flags of `host install|uninstall hermes`.
type HermesOptions struct {
	Home    string // --hermes-home
	Profile string // --profile
	DB      string // --db: the database the entry pins
	Command string // --command: the binary the entry runs
}

// HermesInstall plans adding the server entry and the skill to the
// profile. Warnings (such as a binary inside npx's cache) go to warn.
func HermesInstall(env Env, o HermesOptions, warn io.Writer) (hermes.Plan, error) {
	home, err := hermes.Home(o.Home, o.Profile, env.Get, env.Home)
	if err != nil {
		return hermes.Plan{}, err
	}
	entry, err := HermesEntry(env, o.DB, o.Command)
	if err != nil {
		return hermes.Plan{}, err
	}
	if sep := string(filepath.Separator); strings.Contains(entry.Command, sep+"_npx"+sep) {
		fmt.Fprintf(warn, "warning: %s is in npx's cache, which npm may clear; install the package (npm install -g) and run host install from there\n", entry.Command)
	}
	skill, err := render.HermesSkill()
	if err != nil {
		return hermes.Plan{}, err
	}
	return hermes.PlanInstall(home, plugin.Server, entry, plugin.HermesSkill, skill)
}

// HermesUninstall plans removing the server entry and the skill.
func HermesUninstall(env Env, o HermesOptions) (hermes.Plan, error) {
	home, err := hermes.Home(o.Home, o.Profile, env.Get, env.Home)
	if err != nil {
		return hermes.Plan{}, err
	}
	return hermes.PlanUninstall(home, plugin.Server, plugin.HermesSkill)
}

// HermesEntry builds the server entry: the absolute binary, the database
// (and anchor ledger, when set) this environment resolves, and the host
// marker. Hermes does not pass AGENTOOL_COLLAB_* variables through, so the
// values are written into the entry.
func HermesEntry(env Env, db, command string) (hermes.Entry, error) {
	var err error
	if command == "" {
		if command, err = env.Executable(); err != nil {
			return hermes.Entry{}, fmt.Errorf("find this binary: %w", err)
		}
	}
	if err := LastingBinary(command); err != nil {
		return hermes.Entry{}, err
	}
	if db == "" {
		if db, err = Database(env); err != nil {
			return hermes.Entry{}, err
		}
	}
	if place.IsPostgres(db) {
		// Hermes passes no variable through, so the URL (and any password
		// in it) would be written into Hermes's config file.
		return hermes.Entry{}, fmt.Errorf("%s names the PostgreSQL journal %s; Hermes would need that URL written into its "+
			"config file, so add the collab entry by hand (keep the password in ~/.pgpass, not in the URL)",
			place.EnvDB, place.RedactPostgres(db))
	}
	paths := []hermes.Var{{Name: "command", Value: command}, {Name: place.EnvDB, Value: db}}
	if ledger := env.Get(place.EnvAnchorLedger); ledger != "" {
		paths = append(paths, hermes.Var{Name: place.EnvAnchorLedger, Value: ledger})
	}
	for _, v := range paths {
		if !filepath.IsAbs(v.Value) {
			return hermes.Entry{}, fmt.Errorf("%s must be an absolute path, got %q", v.Name, v.Value)
		}
		if strings.Contains(v.Value, "${") {
			return hermes.Entry{}, fmt.Errorf("%s holds \"${\", which Hermes would expand: %q", v.Name, v.Value)
		}
	}
	vars := append(paths[1:], hermes.Var{Name: plugin.HostVariable, Value: string(hermes.Host)})
	return hermes.Entry{Command: command, Env: vars}, nil
}
