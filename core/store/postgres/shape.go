package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/agenttool/collab/core/store/layout"
)

// journalColumns is the collab schema as this engine holds it: each journal
// table of the one table description (core/store/layout) with its columns
// in order, and the identity row_id after them where SQLite's rowid order
// is kept. TestDDLIsTheLayout proves the statements of schema.go create
// exactly that.
func journalColumns() map[string][]string {
	out := map[string][]string{}
	for _, t := range layout.Of(layout.Tables(), layout.Journal) {
		cols := layout.Names(t.All())
		if t.RowOrdered {
			cols = append(cols, layout.RowIDColumn)
		}
		out[t.Name] = cols
	}
	return out
}

// checkShape compares the collab schema the database holds with journalColumns:
// every table present with exactly its columns, in order. It returns one
// error naming the differences (at most ten), or nil; it changes nothing.
func checkShape(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT table_name, column_name FROM information_schema.columns
WHERE table_schema = $1 ORDER BY table_name, ordinal_position`, SchemaName)
	if err != nil {
		return fmt.Errorf("read the %s schema's columns: %w", SchemaName, err)
	}
	defer rows.Close()
	have := map[string][]string{}
	for rows.Next() {
		var table, column string
		if err := rows.Scan(&table, &column); err != nil {
			return fmt.Errorf("read the %s schema's columns: %w", SchemaName, err)
		}
		have[table] = append(have[table], column)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read the %s schema's columns: %w", SchemaName, err)
	}
	if problems := shapeProblems(journalColumns(), have); len(problems) > 0 {
		return fmt.Errorf("the %s schema is not the one this binary made (%s); collab changed nothing",
			SchemaName, strings.Join(problems, "; "))
	}
	return nil
}

// shapeProblems lists how have differs from want, tables in name order,
// at most ten.
func shapeProblems(want, have map[string][]string) []string {
	var problems []string
	names := make([]string, 0, len(want))
	for name := range want {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		got, ok := have[name]
		switch {
		case !ok:
			problems = append(problems, "table "+name+" is missing")
		case !slices.Equal(got, want[name]):
			problems = append(problems, fmt.Sprintf("table %s has columns (%s), want (%s)",
				name, strings.Join(got, ", "), strings.Join(want[name], ", ")))
		}
		if len(problems) == 10 {
			break
		}
	}
	return problems
}
