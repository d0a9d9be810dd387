// Package covertest lets tests that start real OS processes count those
// processes' coverage. A test binary built by `go test -cover` writes its
// coverage data into one directory (the -test.gocoverdir flag; `go test`
// also sets GOCOVERDIR to it); a child that is the same binary re-executed,
// or a binary built with -cover, adds its own data files there when it is
// told the directory through GOCOVERDIR. `go test -cover` then merges the
// children's counters with the parent's (pods with the same meta-data
// hash), and `go tool covdata` merges everything, as .ci/coverage does.
//
// Outside a coverage run every function here returns nothing, so tests
// behave exactly as before.
package covertest

import (
	"flag"
	"os"
)

// Dir returns the directory this coverage run collects data in: the test
// binary's -test.gocoverdir flag when set, else GOCOVERDIR, else "" (not a
// coverage run). The flag wins because `go test -args -test.gocoverdir=D`
// points it at D while GOCOVERDIR still names go test's own scratch folder.
func Dir() string {
	if f := flag.Lookup("test.gocoverdir"); f != nil && f.Value.String() != "" {
		return f.Value.String()
	}
	return os.Getenv("GOCOVERDIR")
}

// Env returns the environment entries a child process needs to add its
// coverage data to this run: GOCOVERDIR, or nothing outside a coverage
// run. Append it last: for a duplicated key os/exec uses the last value.
func Env() []string {
	if d := Dir(); d != "" {
		return []string{"GOCOVERDIR=" + d}
	}
	return nil
}

// BuildFlags returns the `go build` flags that make a binary a test builds
// record coverage of every package of this module, or nothing outside a
// coverage run. Such a binary writes its data where Env points it.
func BuildFlags() []string {
	if Dir() == "" {
		return nil
	}
	return []string{"-cover", "-coverpkg=github.com/agenttool/collab/..."}
}
