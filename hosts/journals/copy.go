package journals

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/agenttool/collab/core/store/transfer"
	"github.com/agenttool/collab/hosts/command"
)

// Copy moves a whole journal between databases: a SQLite file and
// a PostgreSQL database, either way (see core/store/transfer for what a
// copy guarantees). It exits 0 when the copy committed, 1 when it was
// refused (a non-empty target, a broken chain, an older source, the same
// database twice), 2 on a usage error or when it cannot reach a database.
func Copy(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := command.NewParser("copy", `copy --from SOURCE --to TARGET [--replace] [--json]

Copy every workspace journal of SOURCE into TARGET. Each is a SQLite file
path or a postgres:// (postgresql://) URL; the PG* environment fills in what
a URL leaves out. Every hash chain is verified on the source before anything
is written and on the target before the copy commits; the target is written
in one transaction, so it ends up holding the whole copy or stays as it was.
The source is only read (an older SQLite file is refused: open it once with
this collab first). A target that already holds a journal is refused, and
nothing written, unless --replace is given.`)
	from := c.Flags.String("from", "", "the database to copy from (SQLite file or postgres:// URL)")
	to := c.Flags.String("to", "", "the database to copy into (created when it is a missing SQLite file)")
	replace := c.Flags.Bool("replace", false, "replace the target's journal: delete every journal row the target holds "+
		"and put the source's in its place, in the copy's one transaction")
	asJSON := c.Flags.Bool("json", false, "print one JSON object for scripts")
	if _, code, done := c.Parse(args, 0, 0, stdout, stderr); done {
		return code
	}
	if *from == "" || *to == "" {
		return c.UsageFailure(stderr, "both --from and --to are required")
	}
	started := time.Now()
	opts := transfer.Options{From: *from, To: *to, Replace: *replace}
	if !*asJSON && command.IsTerminal(stderr) {
		opts.Progress = copyProgress(stderr)
	}
	sum, err := transfer.Copy(ctx, opts)
	if err != nil {
		return c.Fail(*asJSON, stdout, stderr, copyExit(err), copyError(err))
	}
	elapsed := time.Since(started)
	if *asJSON {
		command.WriteJSON(stdout, map[string]any{"from": sum.From, "to": sum.To, "replaced": sum.Replaced,
			"tables": sum.Tables, "rows": sum.Rows, "workspaces": len(sum.Chains), "events": sum.Events,
			"chains_verified": len(sum.Chains), "chains": orNoChains(sum.Chains), "seconds": elapsed.Seconds()})
		return 0
	}
	printCopy(stdout, sum, elapsed)
	return 0
}

// copyExit is 1 for a refusal (the databases are reachable and the copy
// said no) and 2 when it could not be attempted.
func copyExit(err error) int {
	var chain *transfer.ChainError
	switch {
	case errors.Is(err, transfer.ErrTargetNotEmpty), errors.Is(err, transfer.ErrSameDatabase),
		errors.Is(err, transfer.ErrOlderSchema), errors.Is(err, transfer.ErrSchemaMismatch), errors.As(err, &chain):
		return 1
	}
	return 2
}

// copyError adds what to do next to a refusal of a non-empty target.
func copyError(err error) error {
	if errors.Is(err, transfer.ErrTargetNotEmpty) {
		return fmt.Errorf("%w; nothing was written. To replace the target's journal with the source's, "+
			"run again with --replace", err)
	}
	return err
}

// copyProgress prints one concise line per step on a terminal.
func copyProgress(w io.Writer) func(p transfer.Progress) {
	return func(p transfer.Progress) {
		switch {
		case p.Step == "copy" && p.Done:
			fmt.Fprintf(w, "  %-22s %d rows\n", p.Table, p.Rows)
		case p.Step != "copy" && !p.Done:
			fmt.Fprintf(w, "· %s…\n", p.Step)
		}
	}
}

func printCopy(w io.Writer, sum transfer.Summary, elapsed time.Duration) {
	verb := "copied"
	if sum.Replaced {
		verb = "replaced the target's journal with"
	}
	fmt.Fprintf(w, "%s %d rows in %d tables, %d events in %d workspace journals, in %.2fs\n",
		verb, sum.Rows, len(sum.Tables), sum.Events, len(sum.Chains), elapsed.Seconds())
	fmt.Fprintf(w, "  from %s\n  to   %s\n", sum.From, sum.To)
	for _, t := range sum.Tables {
		if t.Rows > 0 {
			fmt.Fprintf(w, "  %-22s %d\n", t.Table, t.Rows)
		}
	}
	for _, ch := range sum.Chains {
		short := ch.HeadHash
		if len(short) > 12 {
			short = short[:12]
		}
		fmt.Fprintf(w, "  %s  %-24q head %d (%s)  chain valid on both sides\n", ch.WorkspaceID, ch.Name, ch.HeadSequence, short)
	}
	fmt.Fprintf(w, "%d chain(s) verified on the source before the copy and on the target before it committed\n", len(sum.Chains))
}

func orNoChains(c []transfer.Chain) []transfer.Chain {
	if c == nil {
		return []transfer.Chain{}
	}
	return c
}
