// Package dbpath decides which database file a collab process opens. The
// rule is the reference's, on every operating system, so that every
// implementation and every host on one machine finds the same file:
// AGENTOOL_COLLAB_DB when it is set at all, else
// $XDG_DATA_HOME/agenttool/collab.sqlite when XDG_DATA_HOME is non-empty,
// else ~/.local/share/agenttool/collab.sqlite. (A platform-native data
// directory such as ~/Library/Application Support would split the journal
// between implementations on macOS and Windows, so none is used.)
package dbpath

import (
	"errors"
	"path/filepath"
)

// Source says which rule chose the path.
type Source string

// The rules, in the order they are tried.
const (
	FromEnv     Source = "AGENTOOL_COLLAB_DB"
	FromXDG     Source = "XDG_DATA_HOME"
	FromDefault Source = "default"
)

// Env is what Resolve reads: environment lookups and the home directory.
type Env struct {
	// LookupEnv reports a variable's value and whether it is set.
	LookupEnv func(string) (string, bool)
	// Home returns the user's home directory.
	Home func() (string, error)
	// Cwd returns the working directory, for relative XDG_DATA_HOME values.
	Cwd func() (string, error)
}

// Choice is a resolved database location.
type Choice struct {
	Path   string
	Source Source
}

// Resolve applies the rule. AGENTOOL_COLLAB_DB is returned verbatim (the
// store makes it absolute); ":memory:" selects an in-memory database.
func Resolve(env Env) (Choice, error) {
	if v, ok := env.LookupEnv("AGENTOOL_COLLAB_DB"); ok {
		return Choice{Path: v, Source: FromEnv}, nil
	}
	if v, ok := env.LookupEnv("XDG_DATA_HOME"); ok && v != "" {
		if !filepath.IsAbs(v) {
			cwd, err := env.Cwd()
			if err != nil {
				return Choice{}, err
			}
			v = filepath.Join(cwd, v)
		}
		return Choice{Path: filepath.Join(v, "agenttool", "collab.sqlite"), Source: FromXDG}, nil
	}
	home, err := env.Home()
	if err != nil || home == "" {
		return Choice{}, errors.New("cannot find the home directory for the default database; set AGENTOOL_COLLAB_DB or XDG_DATA_HOME")
	}
	return Choice{Path: filepath.Join(home, ".local", "share", "agenttool", "collab.sqlite"), Source: FromDefault}, nil
}
