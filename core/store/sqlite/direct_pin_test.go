//go:build !collab_nodirect

package sqlite

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	sqlite3 "modernc.org/sqlite/lib"
)

// The direct read connections (halves.go) call the SQLite library that
// modernc.org/sqlite transpiles, through its generated package lib and
// modernc.org/libc, and read the memory it hands back through unsafe. That
// package's API is regenerated with every SQLite release and follows no
// compatibility promise, so the versions the direct reads were written and
// measured against are pinned here.
var directPins = map[string]string{
	"modernc.org/sqlite": "v1.62.0",
	"modernc.org/libc":   "v1.80.1",
}

// directSQLite is the SQLite release inside the pinned modernc.org/sqlite.
const directSQLite = "3.54.1"

// TestDirectReadsArePinnedToTheirSQLite fails when go.mod moves either
// module or the library reports another SQLite release. On an upgrade: run
// this package's direct tests (direct_test.go, directfresh_test.go,
// halves_test.go), measure the trick again on and off (-tags
// collab_nodirect, see docs/performance.md), and only then move the pins.
func TestDirectReadsArePinnedToTheirSQLite(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join("..", "..", "..", "go.mod"))
	if err != nil {
		t.Fatalf("read go.mod: %v", err)
	}
	for path, want := range directPins {
		m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(path) + `\s+(\S+)`).FindSubmatch(mod)
		if m == nil {
			t.Errorf("go.mod does not require %s", path)
			continue
		}
		if got := string(m[1]); got != want {
			t.Errorf("go.mod requires %s %s; the direct read connections were written against %s: "+
				"check them again before moving the pin (see this test's comment)", path, got, want)
		}
	}
	if sqlite3.SQLITE_VERSION != directSQLite {
		t.Errorf("modernc.org/sqlite/lib is SQLite %s; the direct read connections were written against %s",
			sqlite3.SQLITE_VERSION, directSQLite)
	}
}
