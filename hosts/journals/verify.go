// Package journals holds the commands over whole journals: verify checks
// every chain of a database without changing it, copy moves journals
// between a SQLite file and PostgreSQL with every chain verified.
package journals

import (
	"context"
	"fmt"
	"io"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/dbfile"
)

// Verify checks a database's pages (SQLite quick_check) and every
// workspace journal without changing it: the file is opened read-only and
// never migrated, and a cleanly closed file is read in place, so nothing
// is created beside it (it works on read-only media). It exits 0 when the
// pages are sound and every chain is valid, 1 when not, 2 when it cannot
// check.
func Verify(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := command.NewParser("verify", "verify [--json] [FILE | --db FILE]")
	db := c.Flags.String("db", "", "database file (default: the one the server would open)")
	asJSON := c.Flags.Bool("json", false, "print one JSON object for scripts")
	files, code, done := c.Parse(args, 0, 1, stdout, stderr)
	if done {
		return code
	}
	path, source, err := verifyTarget(files, *db)
	if err != nil {
		return c.Fail(*asJSON, stdout, stderr, 2, err)
	}
	if err := dbfile.CheckDatabaseFile(path, source); err != nil {
		return c.Fail(*asJSON, stdout, stderr, 2, err)
	}
	st, err := backend.Open(ctx, backend.Options{Path: path, Inspect: true})
	if collaberr.HasCode(err, collaberr.DatabaseCorrupt) {
		// Too damaged to read the schema: that is the verdict.
		return c.Fail(*asJSON, stdout, stderr, 1, dbfile.CollabError(err))
	}
	if err != nil {
		return c.Fail(*asJSON, stdout, stderr, 2, dbfile.CollabError(err))
	}
	defer st.Close()
	damage, err := st.QuickCheck(ctx)
	if err != nil {
		return c.Fail(*asJSON, stdout, stderr, 2, dbfile.CollabError(err))
	}
	results, err := st.VerifyAll(ctx)
	if err != nil && len(damage) == 0 {
		return c.Fail(*asJSON, stdout, stderr, 2, dbfile.CollabError(err))
	}
	if err != nil {
		// The journals cannot be read past the damage already reported.
		results = nil
	}
	valid := len(damage) == 0
	for _, r := range results {
		valid = valid && r.ChainValid && r.RecordedFoldProblem == ""
	}
	if *asJSON {
		command.WriteJSON(stdout, map[string]any{"database": st.Path(), "all_valid": valid, "pages_sound": len(damage) == 0,
			"page_problems": orNone(damage), "workspaces": orEmpty(results)})
	} else {
		printVerification(stdout, st.Path(), results, valid)
		printDamage(stdout, damage, place.IsPostgres(path))
	}
	if !valid {
		return 1
	}
	return 0
}

// verifyTarget is the database to verify and the setting that named it: a
// positional FILE, --db FILE (not both, unless they agree), or the one the
// server would open.
func verifyTarget(files []string, db string) (path, source string, err error) {
	switch {
	case len(files) == 1 && db != "" && db != files[0]:
		return "", "", command.UsageError{Msg: "verify takes one database file"}
	case len(files) == 1:
		return files[0], "the command line", nil
	case db != "":
		return db, "--db", nil
	}
	choice, err := place.Database(place.OS())
	if err != nil {
		return "", "", err
	}
	return choice.Path, dbfile.Source(choice.Source), nil
}

func orNone(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// printDamage reports what SQLite's page and foreign-key checks (for
// PostgreSQL, the schema check) found, if anything.
func printDamage(w io.Writer, damage []string, pg bool) {
	if len(damage) == 0 {
		return
	}
	if pg {
		fmt.Fprintln(w, "DAMAGED: the collab schema check reports the following; check the role's privileges and the server:")
	} else {
		fmt.Fprintln(w, "DAMAGED: SQLite's page and foreign-key checks report the following; restore the file from a copy:")
	}
	for _, d := range damage {
		fmt.Fprintf(w, "  %s\n", d)
	}
}

func allChainsValid(results []store.WorkspaceVerification) bool {
	for _, r := range results {
		if !r.ChainValid {
			return false
		}
	}
	return true
}

// foldWrong reports whether a recorded independence fold disagrees with
// its journal.
func foldWrong(results []store.WorkspaceVerification) bool {
	for _, r := range results {
		if r.RecordedFoldProblem != "" {
			return true
		}
	}
	return false
}

func orEmpty(r []store.WorkspaceVerification) []store.WorkspaceVerification {
	if r == nil {
		return []store.WorkspaceVerification{}
	}
	return r
}

func printVerification(w io.Writer, path string, results []store.WorkspaceVerification, valid bool) {
	fmt.Fprintf(w, "database %s: %d workspace(s)\n", path, len(results))
	for _, r := range results {
		state := "valid"
		if !r.ChainValid {
			state = "INVALID"
		}
		short := r.HeadHash
		if len(short) > 12 {
			short = short[:12]
		}
		fmt.Fprintf(w, "  %s  %-24q head %d (%s)  %d events  chain %s\n", r.WorkspaceID, r.Name, r.HeadSequence, short, r.EventCount, state)
		if !r.ChainValid {
			fmt.Fprintf(w, "    first bad sequence %d: %s\n", r.FirstBadSequence, r.Problem)
		}
		if r.RecordedFoldProblem != "" {
			fmt.Fprintf(w, "    RECORDED FOLD WRONG: %s\n", r.RecordedFoldProblem)
		}
	}
	switch {
	case valid:
		fmt.Fprintln(w, "every journal verifies")
	case allChainsValid(results) && foldWrong(results):
		fmt.Fprintln(w, "the journal chains verify, but a recorded independence fold does not match its journal")
	case allChainsValid(results):
		fmt.Fprintln(w, "the journal chains verify, but the file is damaged:")
	default:
		fmt.Fprintln(w, "at least one journal FAILS verification")
	}
}
