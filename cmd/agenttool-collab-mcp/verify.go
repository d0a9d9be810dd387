package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/agenttool/collab/core/dbpath"
	"github.com/agenttool/collab/core/store"
)

// verifyCommand checks every workspace journal of a database without
// changing it: the file is opened read-only and never migrated. It exits 0
// when every chain is valid, 1 when one is not, 2 when it cannot check.
func verifyCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := newCommand("verify", "verify [--db FILE] [--json]")
	db := c.flags.String("db", "", "database file (default: the one the server would open)")
	asJSON := c.flags.Bool("json", false, "print one JSON object for scripts")
	if _, code, done := c.parse(args, 0, 0, stdout, stderr); done {
		return code
	}
	path, source := *db, "--db"
	if path == "" {
		choice, err := dbpath.Resolve(osEnv())
		if err != nil {
			return c.fail(*asJSON, stdout, stderr, 2, err)
		}
		path, source = choice.Path, dbSource(choice.Source)
	}
	if err := checkDatabaseFile(path, source); err != nil {
		return c.fail(*asJSON, stdout, stderr, 2, err)
	}
	st, err := store.Open(ctx, store.Options{Path: path, ReadOnly: true})
	if err != nil {
		return c.fail(*asJSON, stdout, stderr, 2, collabError(err))
	}
	defer st.Close()
	results, err := st.VerifyAll(ctx)
	if err != nil {
		return c.fail(*asJSON, stdout, stderr, 2, collabError(err))
	}
	valid := true
	for _, r := range results {
		valid = valid && r.ChainValid
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(map[string]any{"database": path, "all_valid": valid, "workspaces": orEmpty(results)})
	} else {
		printVerification(stdout, path, results, valid)
	}
	if !valid {
		return 1
	}
	return 0
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
	}
	if valid {
		fmt.Fprintln(w, "every journal verifies")
	} else {
		fmt.Fprintln(w, "at least one journal FAILS verification")
	}
}
