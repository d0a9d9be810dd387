package place

import (
	"errors"
	"os"
	"runtime"
)

// Env is the environment a rule reads. The zero value has no variables,
// no working directory and GOOS "" (treated as a Unix).
type Env struct {
	// GOOS selects the operating system's variant of a rule ("linux",
	// "darwin", "windows", ...), as runtime.GOOS names it.
	GOOS string
	// Lookup reports a variable's value and whether it is set at all.
	Lookup func(name string) (string, bool)
	// Cwd returns the working directory, against which a rule resolves a
	// relative setting.
	Cwd func() (string, error)
}

// OS returns the environment of this process.
func OS() Env {
	return Env{GOOS: runtime.GOOS, Lookup: os.LookupEnv, Cwd: os.Getwd}
}

// Map returns an environment holding exactly vars, for goos, with cwd as
// the working directory. It is how callers that inspect another process's
// environment (the doctor, tests) apply the rules.
func Map(goos string, vars map[string]string, cwd string) Env {
	return Env{
		GOOS:   goos,
		Lookup: func(name string) (string, bool) { v, ok := vars[name]; return v, ok },
		Cwd:    func() (string, error) { return cwd, nil },
	}
}

// Get returns a variable's value, "" when it is unset.
func (e Env) Get(name string) string {
	v, _ := e.lookup(name)
	return v
}

func (e Env) lookup(name string) (string, bool) {
	if e.Lookup == nil {
		return "", false
	}
	return e.Lookup(name)
}

func (e Env) cwd() (string, error) {
	if e.Cwd == nil {
		return "", errors.New("no working directory")
	}
	return e.Cwd()
}

// ErrNoHome is returned when the variable naming the home directory is
// unset or empty.
var ErrNoHome = errors.New("no home directory: HOME (USERPROFILE on Windows) is unset or empty")

// Home returns the user's home directory the way the operating system's
// convention (and Go's os.UserHomeDir) finds it: USERPROFILE on Windows,
// home on Plan 9, HOME everywhere else. An unset or empty variable is an
// error.
func (e Env) Home() (string, error) {
	name := HomeVar(e.GOOS)
	if v := e.Get(name); v != "" {
		return v, nil
	}
	return "", ErrNoHome
}

// HomeVar names the variable that holds the home directory on goos.
func HomeVar(goos string) string {
	switch goos {
	case "windows":
		return EnvUserProfile
	case "plan9":
		return "home"
	}
	return EnvHome
}
