// Package golden keeps generated files and snapshots honest. A test builds
// what a file should hold from the code and calls Check: normally a
// difference fails the test, naming the file and how to regenerate it;
// when the run is updating, the file is rewritten first.
//
// A run updates when its test binary gets -update (what the //go:generate
// directives pass, so `go generate ./...` rewrites every generated file) or
// when UPDATE_DOCS=1 is set (so `UPDATE_DOCS=1 go test ./...` does too).
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// Env is the environment switch that makes a test run rewrite its files.
const Env = "UPDATE_DOCS"

// Regenerate is the command that rewrites every generated file.
const Regenerate = "go generate ./..."

var update = flag.Bool("update", false, "rewrite generated files and snapshots instead of comparing them")

// Updating reports whether this test run rewrites generated files rather
// than comparing them.
func Updating() bool {
	return *update || os.Getenv(Env) == "1"
}

// Check fails t unless the file at path holds exactly want. When the run
// is updating it writes want to path first (creating its directory), so
// the comparison then passes.
func Check(t testing.TB, path string, want []byte) {
	t.Helper()
	if Updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s is missing (%v); run %s", path, err, Regenerate)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale; run %s (or %s=1 go test on its package)", path, Regenerate, Env)
	}
}
