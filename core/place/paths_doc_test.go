package place_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/place"
)

// docPath is docs/paths.md, relative to this package.
var docPath = filepath.Join("..", "..", "docs", "paths.md")

// TestPathsDocIsCurrent regenerates docs/paths.md from Variables and from
// the rules themselves (every example path is computed by calling them),
// and fails when the file differs. Regenerate with
// UPDATE_DOCS=1 go test ./core/place -run TestPathsDocIsCurrent.
func TestPathsDocIsCurrent(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the examples are Unix paths")
	}
	got := renderPathsDoc(t)
	if os.Getenv("UPDATE_DOCS") == "1" {
		if err := os.WriteFile(docPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(docPath)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("docs/paths.md is stale; run UPDATE_DOCS=1 go test ./core/place -run TestPathsDocIsCurrent (%v)", err)
	}
}

func renderPathsDoc(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(`# Environment variables and file locations

Generated from ` + "`core/place`" + ` (the one package that holds these rules) by
` + "`UPDATE_DOCS=1 go test ./core/place -run TestPathsDocIsCurrent`" + `; a test fails
when this page is stale. Every example below is computed by calling the rule.

## Environment variables

| Variable | Read by | Rule |
|---|---|---|
`)
	for _, v := range place.Variables {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", v.Name, v.ReadBy, v.Rule)
	}
	fmt.Fprintf(&b, "\nA host must forward %s to the server, or the server may open another journal than the user's shell.\n",
		"`"+strings.Join(place.ServerVariables(), "`, `")+"`")

	home := map[string]string{"HOME": "/home/me"}
	db := must(t, func() (place.DatabaseChoice, error) { return place.Database(place.Map("linux", home, "/work")) })
	xdg := must(t, func() (place.DatabaseChoice, error) {
		return place.Database(place.Map("linux", map[string]string{"XDG_DATA_HOME": "data", "HOME": "/home/me"}, "/work"))
	})
	win := must(t, func() (place.DatabaseChoice, error) {
		return place.Database(place.Map("windows", map[string]string{"USERPROFILE": "/Users/me", "HOME": "/ignored"}, "/work"))
	})
	beside := must(t, func() (place.Beside, error) { return place.BesideDatabase(db.Path) })
	person := must(t, func() (string, error) {
		return place.PersonCredential(place.Map("linux", home, "/work"), db.Path, "ws_1")
	})
	rows := [][3]string{
		{"Database", "`place.Database`: `AGENTOOL_COLLAB_DB` if set at all; else `$XDG_DATA_HOME/agenttool/collab.sqlite` (relative resolved against the working directory); else `<home>/.local/share/agenttool/collab.sqlite` on every OS, the home being `USERPROFILE` on Windows and `HOME` elsewhere. No home and no setting is an error.",
			fmt.Sprintf("`%s`; with `XDG_DATA_HOME=data` in `/work`: `%s`; on Windows with `USERPROFILE=/Users/me`: `%s`", db.Path, xdg.Path, win.Path)},
		{"Anchor ledger", "`place.AnchorLedger`: `AGENTOOL_COLLAB_ANCHOR_LEDGER` if non-empty, verbatim; else `$XDG_DATA_HOME/agenttool/collab-zerone-anchors.json` (relative kept relative); else `$HOME/.local/share/agenttool/collab-zerone-anchors.json` on every OS, `undefined/.local/...` when `HOME` is unset. Read only, never created.",
			fmt.Sprintf("`%s`; without `HOME`: `%s`", place.AnchorLedger(place.Map("linux", home, "/work")), place.AnchorLedger(place.Map("linux", nil, "/work")))},
		{"Session credentials", "`place.Beside.CredentialDir`: `collab-sessions/` beside the absolute database path, 0700; one `<session_id>.json` (0600) per credential-bound session. None for `:memory:`.",
			fmt.Sprintf("`%s`", beside.CredentialFile("session_…"))},
		{"SQLite sidecars", "`place.Beside.WAL`, `SHM`, `RollbackJournal`: the database path plus `-wal`, `-shm`, `-journal`. Each must be a regular file owned by the user before SQLite opens the database; `-wal` and `-shm` are kept 0600.",
			fmt.Sprintf("`%s`", beside.WAL())},
		{"Search index", "`place.Beside.SearchIndex`: the database path plus `.search`; recreated when missing, rebuilt when damaged or foreign (see search.md).",
			fmt.Sprintf("`%s`", beside.SearchIndex())},
		{"Network tokens", "`place.Beside.TokensFile`: `collab-tokens.json` beside the database (hashes only).",
			fmt.Sprintf("`%s`", beside.TokensFile())},
		{"Network resume index", "`place.Beside.ResumeDir`: `collab-remote/` beside the database, one file per client instance.",
			fmt.Sprintf("`%s`", beside.ResumeDir())},
		{"A person's session (CLI)", "`place.PersonCredential`: `$XDG_STATE_HOME/agenttool/collab-person/<digest>.json`, else under `<home>/.local/state/`; the digest names the absolute database path and the workspace.",
			fmt.Sprintf("`%s`", person)},
	}
	b.WriteString("\n## Where files live\n\nExamples for `HOME=/home/me` and no other variable unless stated.\n\n| File | Rule | Example |\n|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", r[0], r[1], r[2])
	}
	b.WriteString("\n## Who owns a file\n\nBefore the database, its SQLite sidecars and the session credential files are trusted, they must be\nregular files (not symlinks) owned by the user: `core/fileowner` compares the owner with the process's real\nuid, as the reference does. Windows has no such owner through Go's file information; there ACLs decide.\n")
	return b.Bytes()
}

func must[T any](t *testing.T, f func() (T, error)) T {
	t.Helper()
	v, err := f()
	if err != nil {
		t.Fatal(err)
	}
	return v
}
