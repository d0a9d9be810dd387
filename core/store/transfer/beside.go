package transfer

import (
	"context"
	"fmt"
	"slices"

	"github.com/agenttool/collab/core/store/layout"
	"github.com/agenttool/collab/core/store/sqlite"
)

// besideTables are the tables kept beside the journal, outside its hash
// chain: delivery receipts and the hosts that started sessions (the
// Beside tables of core/store/layout). A copy carries their rows too,
// checked byte for byte like the journal's, so that receipts a sender saw
// and the host of each session survive a move between engines. Unlike a
// journal table, one may be missing on either side: a SQLite file gains
// each with its first row, and a PostgreSQL role that may not create
// tables opens a journal without its session host table.
var besideTables = besideOf(layout.Tables())

func besideOf(all []layout.Table) []table {
	var out []table
	for _, t := range layout.Of(all, layout.Beside) {
		out = append(out, table{name: t.Name, columns: layout.Names(t.All()), key: t.Key, ordered: t.RowOrdered})
	}
	return out
}

// present reports whether r holds t, refusing one whose columns differ
// from the ones this package copies (checkColumns, for the journal's
// tables, also refuses one that is missing).
func present(ctx context.Context, r reader, t table, side string) (bool, error) {
	got, err := r.columns(ctx, t.name)
	if err != nil {
		return false, fmt.Errorf("read the %s's %s columns: %w", side, t.name, err)
	}
	if got == nil {
		return false, nil
	}
	if !slices.Equal(got, t.columns) {
		return false, fmt.Errorf("%w: the %s's %s has columns %v, expected %v", ErrSchemaMismatch, side, t.name, got, t.columns)
	}
	return true, nil
}

// clearBeside empties the target's beside tables, for Replace.
func clearBeside(ctx context.Context, w writer) error {
	for _, t := range besideTables {
		ok, err := present(ctx, w, t, "target")
		if err != nil {
			return err
		}
		if ok {
			if err := w.exec(ctx, "DELETE FROM "+t.name); err != nil {
				return fmt.Errorf("clear %s: %w", t.name, err)
			}
		}
	}
	return nil
}

// copyBeside copies each beside table the source holds rows of, creating
// it in a SQLite target that lacks it, and returns the digests of the
// rows copied, by table. A table the source lacks, or holds no row of, is
// left as it is on the target (empty: the journal was refused or cleared
// first).
func copyBeside(ctx context.Context, r reader, w writer, progress func(Progress), sum *Summary) (map[string]rowDigests, error) {
	out := map[string]rowDigests{}
	for _, t := range besideTables {
		ok, err := present(ctx, r, t, "source")
		if err != nil {
			return out, err
		}
		if !ok {
			continue
		}
		if ok, err = present(ctx, w, t, "target"); err != nil {
			return out, err
		}
		if !ok {
			ddl, _ := sqlite.BesideDDL(t.name) // a PostgreSQL schema makes its own
			if err := w.create(ctx, t.name, ddl); err != nil {
				return out, err
			}
		}
		progress(Progress{Step: "copy", Table: t.name})
		d, err := copyTable(ctx, r, w, t)
		if err != nil {
			return out, err
		}
		out[t.name] = d
		sum.Tables = append(sum.Tables, TableCount{Table: t.name, Rows: int64(len(d))})
		sum.Rows += int64(len(d))
		progress(Progress{Step: "copy", Table: t.name, Rows: int64(len(d)), Done: true})
	}
	return out, nil
}

// checkBeside re-reads the beside tables copied and compares them with
// the source's digests.
func checkBeside(ctx context.Context, w writer, want map[string]rowDigests) error {
	for _, t := range besideTables {
		d, copied := want[t.name]
		if !copied {
			continue
		}
		if err := checkTable(ctx, w, t, d); err != nil {
			return err
		}
	}
	return nil
}
