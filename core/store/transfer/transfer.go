// Package transfer copies a whole collab journal between storage engines:
// a SQLite file to a PostgreSQL database and back (SQLite to SQLite and
// PostgreSQL to PostgreSQL work the same way).
//
// A copy moves every row of every journal table, with every column's
// bytes unchanged, so the hash chains verify on the target with the same
// algorithm. It guarantees:
//   - the source is read from one snapshot and never written (a SQLite
//     source is not even migrated: an older file is refused);
//   - every workspace chain is verified on the source before the target is
//     opened, so a damaged source leaves the target untouched;
//   - the target is written in one transaction that, before it commits,
//     re-reads every table and checks each row's bytes (and, for tables
//     whose row order the engines keep, the order) against the source's and
//     verifies every chain again; any failure rolls it back, so the target
//     is either the whole copy or as it was (a SQLite target file the copy
//     created is removed again);
//   - the tables kept beside the journal (delivery receipts, session
//     hosts) are carried and checked the same way, where the source has
//     them;
//   - a target holding any journal row is refused unless Replace is set,
//     and Replace swaps its whole journal for the source's in that same
//     transaction.
package transfer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

var (
	// ErrTargetNotEmpty refuses a copy into a database that already holds
	// journal rows when Options.Replace is not set.
	ErrTargetNotEmpty = errors.New("the target already holds a collab journal")
	// ErrSameDatabase refuses a copy whose source and target are one
	// database.
	ErrSameDatabase = errors.New("the source and the target are the same database")
	// ErrOlderSchema refuses a SQLite file whose schema predates this
	// binary's: a copy never migrates its source.
	ErrOlderSchema = errors.New("the SQLite file uses an older collab schema")
	// ErrSchemaMismatch refuses a database whose tables are not the ones
	// this binary copies.
	ErrSchemaMismatch = errors.New("the database's tables are not the ones this collab copies")
)

// Options configure Copy.
type Options struct {
	// From and To name the source and the target: postgres:// or
	// postgresql:// URLs, or SQLite file paths.
	From, To string
	// Replace lets the copy delete a non-empty target's journal and put the
	// source's in its place.
	Replace bool
	// Progress, when set, hears of each step as it starts and ends.
	Progress func(p Progress)
}

// Progress is one step of a copy.
type Progress struct {
	Step  string // "verify source", "copy", "check target"
	Table string // the table being copied, for "copy"
	Rows  int64  // rows copied so far, for "copy" once Done
	Done  bool
}

// TableCount is the rows of one table a copy moved.
type TableCount struct {
	Table string `json:"table"`
	Rows  int64  `json:"rows"`
}

// Summary is what a finished copy moved and checked.
type Summary struct {
	From     string       `json:"from"`
	To       string       `json:"to"`
	Replaced bool         `json:"replaced"` // the target held rows that were replaced
	Tables   []TableCount `json:"tables"`
	Rows     int64        `json:"rows"`
	Events   int64        `json:"events"`
	// Chains lists every workspace journal, each verified on the source
	// before the copy and on the target before the commit.
	Chains []Chain `json:"chains"`
}

// Copy copies the journal at opts.From into opts.To (see the package
// documentation for what it guarantees). Errors never hold a password
// from either location.
func Copy(ctx context.Context, opts Options) (Summary, error) {
	from, err := ParseLocation(opts.From)
	if err != nil {
		return Summary{}, fmt.Errorf("--from: %w", err)
	}
	to, err := ParseLocation(opts.To)
	if err != nil {
		return Summary{}, fmt.Errorf("--to: %w", err)
	}
	sum, err := copyBetween(ctx, from, to, opts)
	return sum, scrub(err, from, to)
}

func copyBetween(ctx context.Context, from, to Location, opts Options) (Summary, error) {
	sum := Summary{From: from.String(), To: to.String()}
	if same(from, to) {
		return sum, fmt.Errorf("%w (%s)", ErrSameDatabase, from)
	}
	src, err := openSource(ctx, from)
	if err != nil {
		return sum, err
	}
	defer src.close()
	progress := opts.Progress
	if progress == nil {
		progress = func(Progress) {}
	}
	err = src.snapshot(ctx, func(r reader) error {
		if err := checkColumns(ctx, r, "source"); err != nil {
			return err
		}
		progress(Progress{Step: "verify source"})
		chains, err := verifyChains(ctx, r, "source")
		if err != nil {
			return err
		}
		progress(Progress{Step: "verify source", Done: true})
		sum.Chains = chains
		return copyInto(ctx, r, to, opts.Replace, progress, &sum)
	})
	if err != nil {
		return Summary{From: sum.From, To: sum.To}, err
	}
	for _, c := range sum.Chains {
		sum.Events += c.Events
	}
	return sum, nil
}

func openSource(ctx context.Context, l Location) (source, error) {
	if l.postgres {
		p, err := openPostgres(ctx, l.raw)
		if err != nil {
			return nil, fmt.Errorf("open the source %s: %w", l, err)
		}
		return p, nil
	}
	return openSQLiteSource(ctx, l.raw)
}

// copyInto opens the target and copies every table from r into it in one
// transaction.
func copyInto(ctx context.Context, r reader, to Location, replace bool, progress func(Progress), sum *Summary) error {
	var tgt target
	var created bool
	if to.postgres {
		p, err := openPostgres(ctx, to.raw)
		if err != nil {
			return fmt.Errorf("open the target %s: %w", to, err)
		}
		tgt = p
	} else {
		s, err := openSQLiteTarget(ctx, to.raw, replace)
		if err != nil {
			return err
		}
		tgt, created = s, s.created
	}
	err := tgt.transaction(ctx, func(w writer) error {
		return fill(ctx, r, w, replace, progress, sum)
	})
	if cerr := tgt.close(); err == nil && cerr != nil {
		err = fmt.Errorf("close the target: %w", cerr)
	}
	if err != nil && created {
		removeSQLiteFile(to.raw)
	}
	return err
}

// fill runs inside the target's transaction: refuse or clear what is
// there, copy every table, then check the target against the source.
func fill(ctx context.Context, r reader, w writer, replace bool, progress func(Progress), sum *Summary) error {
	if err := checkColumns(ctx, w, "target"); err != nil {
		return err
	}
	sum.Replaced, sum.Tables, sum.Rows = false, nil, 0
	if err := refuseRows(ctx, w); err != nil {
		if !replace || !errors.Is(err, ErrTargetNotEmpty) {
			return err
		}
		if err := clearBeside(ctx, w); err != nil {
			return err
		}
		if err := w.clear(ctx); err != nil {
			return err
		}
		sum.Replaced = true
	}
	digests := make(map[string]rowDigests, len(tables))
	for _, t := range tables {
		progress(Progress{Step: "copy", Table: t.name})
		d, err := copyTable(ctx, r, w, t)
		if err != nil {
			return err
		}
		digests[t.name] = d
		sum.Tables = append(sum.Tables, TableCount{Table: t.name, Rows: int64(len(d))})
		sum.Rows += int64(len(d))
		progress(Progress{Step: "copy", Table: t.name, Rows: int64(len(d)), Done: true})
	}
	beside, err := copyBeside(ctx, r, w, progress, sum)
	if err != nil {
		return err
	}
	progress(Progress{Step: "check target"})
	if err := checkTarget(ctx, w, digests, sum.Chains); err != nil {
		return err
	}
	if err := checkBeside(ctx, w, beside); err != nil {
		return err
	}
	progress(Progress{Step: "check target", Done: true})
	return nil
}

// copyTable streams t from r into w in batches and returns the digests of
// the rows it copied, in source order.
func copyTable(ctx context.Context, r reader, w writer, t table) (rowDigests, error) {
	size := w.batch(t)
	batch := make([][]any, 0, size)
	var digests rowDigests
	flush := func() error {
		err := w.insert(ctx, t, batch)
		batch = batch[:0]
		return err
	}
	err := r.each(ctx, "SELECT "+t.columnList()+" FROM "+t.name+" ORDER BY "+r.orderBy(t), nil, func(vals []any) error {
		d, err := digestRow(vals)
		if err != nil {
			return fmt.Errorf("%s: %w", t.name, err)
		}
		digests = append(digests, d)
		batch = append(batch, slices.Clone(vals))
		if len(batch) == size {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return nil, fmt.Errorf("copy %s: %w", t.name, err)
	}
	return digests, nil
}

// checkTarget re-reads every table inside the target's transaction and
// compares it with the source's digests, then verifies every chain.
func checkTarget(ctx context.Context, w writer, want map[string]rowDigests, chains []Chain) error {
	for _, t := range tables {
		if err := checkTable(ctx, w, t, want[t.name]); err != nil {
			return err
		}
	}
	got, err := verifyChains(ctx, w, "target")
	if err != nil {
		return err
	}
	if !slices.Equal(got, chains) {
		return errors.New("the target's journals differ from the source's after the copy; the copy was rolled back")
	}
	return nil
}

// checkTable re-reads t in the target and compares its rows with the
// source's digests.
func checkTable(ctx context.Context, w writer, t table, want rowDigests) error {
	var got rowDigests
	err := w.each(ctx, "SELECT "+t.columnList()+" FROM "+t.name+" ORDER BY "+w.orderBy(t), nil, func(vals []any) error {
		d, err := digestRow(vals)
		got = append(got, d)
		return err
	})
	if err != nil {
		return fmt.Errorf("re-read the target's %s: %w", t.name, err)
	}
	if !want.same(got, t.ordered) {
		return fmt.Errorf("the target's %s does not hold the source's rows byte for byte after the copy; "+
			"the copy was rolled back", t.name)
	}
	return nil
}

// refuseRows returns ErrTargetNotEmpty, with the tables that hold rows,
// when any copied table of r holds one.
func refuseRows(ctx context.Context, r reader) error {
	var full []string
	counted := slices.Clone(tables)
	for _, t := range besideTables {
		ok, err := present(ctx, r, t, "target")
		if err != nil {
			return err
		}
		if ok {
			counted = append(counted, t)
		}
	}
	for _, t := range counted {
		var n int64
		if err := r.each(ctx, "SELECT count(*) FROM "+t.name, nil, func(vals []any) error {
			n, _ = vals[0].(int64)
			return nil
		}); err != nil {
			return fmt.Errorf("count the target's %s: %w", t.name, err)
		}
		if n > 0 {
			full = append(full, fmt.Sprintf("%s: %d", t.name, n))
		}
	}
	if len(full) > 0 {
		return fmt.Errorf("%w (%s)", ErrTargetNotEmpty, strings.Join(full, ", "))
	}
	return nil
}

// checkColumns refuses a database whose tables or columns differ from
// the ones this package copies.
func checkColumns(ctx context.Context, r reader, side string) error {
	for _, t := range tables {
		ok, err := present(ctx, r, t, side)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("%w: the %s has no %s table", ErrSchemaMismatch, side, t.name)
		}
	}
	return nil
}
