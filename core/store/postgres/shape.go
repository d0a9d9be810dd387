package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// layout is the collab schema as the statements of schema.go create it:
// each table's columns, in order, keyed by table name.
func layout() map[string][]string {
	out := map[string][]string{}
	for _, ddl := range tables {
		rest, ok := strings.CutPrefix(strings.TrimSpace(ddl), "CREATE TABLE ")
		if !ok {
			continue
		}
		name, body, _ := strings.Cut(rest, " (")
		var cols []string
		for _, line := range strings.Split(body, "\n") {
			line = strings.TrimSpace(line)
			word, _, _ := strings.Cut(line, " ")
			switch {
			case word == "" || strings.HasPrefix(word, ")"):
			case strings.HasPrefix(word, "PRIMARY"), strings.HasPrefix(word, "UNIQUE"),
				strings.HasPrefix(word, "FOREIGN"), strings.HasPrefix(word, "CHECK"), strings.HasPrefix(word, "CONSTRAINT"):
			default:
				cols = append(cols, word)
			}
		}
		out[name] = cols
	}
	return out
}

// checkShape compares the collab schema the database holds with layout:
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
	if problems := shapeProblems(layout(), have); len(problems) > 0 {
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
