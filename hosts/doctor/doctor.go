// Package doctor checks that every host on this machine reaches the same
// collab journal: which database this process opens and why, which one
// each installed host entry would make the server open, whether the plugin
// root's manifests match the binary, file modes, and the journal itself.
// It reads only; nothing is created, migrated or changed.
package doctor

import (
	"context"
	"fmt"
)

// Inputs is everything the checks read about the running process.
type Inputs struct {
	// Env is the process environment; Run treats it as the user's.
	Env map[string]string
	// Cwd is the working directory, for relative database settings.
	Cwd string
	// Executable is this binary's resolved path.
	Executable string
	// Version is this binary's version.
	Version string
	// PluginRoot overrides plugin root detection when non-empty.
	PluginRoot string
	// OS and Arch are runtime.GOOS and runtime.GOARCH: they pick the
	// plugin root's binary for this machine, and Windows skips mode checks.
	OS, Arch string
}

// Report is the outcome of every check. Problems lists, in plain words,
// each thing a person needs to act on; an empty list means all is well.
type Report struct {
	Version    string       `json:"version"`
	Executable string       `json:"executable"`
	Launch     Launch       `json:"launch"`
	Database   Database     `json:"database"`
	Hosts      []HostReport `json:"hosts"`
	Agree      bool         `json:"hosts_agree"`
	PluginRoot *RootReport  `json:"plugin_root"`
	Files      []FileCheck  `json:"files"`
	Journal    JournalCheck `json:"journal"`
	Problems   []string     `json:"problems"`
}

// ActionNeeded reports whether any check found a problem.
func (r Report) ActionNeeded() bool { return len(r.Problems) > 0 }

// Run performs every check.
func Run(ctx context.Context, in Inputs) Report {
	r := Report{Version: in.Version, Executable: in.Executable, Launch: launchOf(in), Problems: []string{}}
	r.Database = resolve(in.OS, in.Env, in.Cwd)
	if r.Database.Error != "" {
		r.problem("the database location cannot be resolved: %s", r.Database.Error)
	} else if r.Database.Relative {
		r.problem("the database setting %s is a relative path, which each host resolves against its own working directory; make it absolute", r.Database.Source)
	}
	root := findRoot(in)
	r.Hosts = evaluateHosts(in, root, r.Database)
	r.Agree = true
	for _, h := range r.Hosts {
		if !h.Agrees {
			r.Agree = false
			r.problem("%s", disagreement(h, r.Database))
		}
	}
	if root != nil {
		r.PluginRoot = checkRoot(*root, in.Version)
		for _, p := range r.PluginRoot.Problems {
			r.problem("%s", p)
		}
	}
	r.Files = checkFiles(in, r.Database, r.PluginRoot)
	for _, f := range r.Files {
		if !f.OK {
			r.problem("%s", f.problem())
		}
	}
	r.Journal = checkJournal(ctx, r.Database)
	if r.Journal.Status == JournalFailed {
		r.problem("the journal does not open cleanly: %s", r.Journal.Detail)
	}
	return r
}

// disagreement says how a host's database differs from the shell's: two
// different paths when they are, else what makes the host's setting
// unreliable (a relative path, a setting that cannot be resolved), without
// setting a path beside itself.
func disagreement(h HostReport, want Database) string {
	who := fmt.Sprintf("%s (%s)", h.Host, h.Entry)
	switch {
	case h.Database.Error != "":
		return fmt.Sprintf("%s cannot tell which database to open: %s", who, h.Note)
	case h.Database.Path != want.Path:
		return fmt.Sprintf("%s would open %s instead of %s: %s", who, h.Database.Path, want.Path, h.Note)
	case h.Database.Relative:
		return fmt.Sprintf("%s opens %s only by chance: %s; make the setting absolute", who, h.Database.Path, h.Note)
	}
	return fmt.Sprintf("%s: %s", who, h.Note)
}

func (r *Report) problem(format string, args ...any) {
	r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
}
