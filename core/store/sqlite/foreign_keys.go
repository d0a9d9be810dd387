package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/agenttool/collab/core/collaberr"
)

// Opening a current file refuses it when a row's foreign key points
// nowhere. SQLite's pragma_foreign_key_check reads every row of every
// child table, which made it most of an open's cost in a long history, so
// once a file records marks (after an open checked 256 rows or more of
// the tables below; until then, and in a small file always, an open runs
// SQLite's own check over every row as before), an open checks each child
// table in one of three ways:
//
//   - A table whose only foreign key is one column that leads its primary
//     key (events, mutations, tasks: workspace_id) is checked by walking
//     that key's index from one distinct value to the next and looking each
//     value up in the parent: O(distinct values · log rows), and exactly
//     what the full check finds for that table.
//   - Any other rowid table is checked only above the highest rowid an
//     earlier open checked, recorded in foreign_keys_checked (a table the
//     reference ignores), with the same rule the full check applies (a row
//     whose key columns are all non-NULL must match a parent row).
//   - A table neither rule fits (WITHOUT ROWID, a column named rowid, a
//     key whose parent columns cannot be named) is checked in full.
//
// What an open no longer sees is a row at or below its table's mark made
// to point nowhere by a change outside collab with foreign keys off (the
// parent row deleted, or the row's key edited in place, or a row inserted
// into a rowid gap): the full check on demand (DB.QuickCheck, run by
// verify) still reports it.

// ForeignKeysCheckedTable records, per child table, the highest rowid an
// open found pointing somewhere. It describes this file only
// (layout.SQLiteRecord): a copy leaves it behind, so a copied file is
// checked in full on its first open.
const ForeignKeysCheckedTable = "foreign_keys_checked"

// ForeignKeysCheckedDDL creates the checked-rows table; opens that
// recorded nothing never create it.
var ForeignKeysCheckedDDL = []string{`CREATE TABLE IF NOT EXISTS foreign_keys_checked (
  table_name TEXT NOT NULL PRIMARY KEY,
  checked_rowid INTEGER NOT NULL,
  checked_at TEXT NOT NULL
)`}

// recordForeignKeysAfter is how many rows an open must have checked above
// the marks before it records new ones: checking fewer costs less than
// the commit recording them, and a small file never gains the table.
const recordForeignKeysAfter = 256

// foreignKey is one foreign key of a child table: its columns and the
// parent columns they name, in order.
type foreignKey struct {
	parent   string
	children []string
	parents  []string
}

// childTable is a table with foreign keys and how an open checks it.
type childTable struct {
	name    string
	keys    []foreignKey
	byIndex bool // the only key is one column leading the primary key
	byRowid bool // rows above a recorded mark can be checked alone
}

// foreignKeyMarks are the rowids an open checked up to, by table.
type foreignKeyMarks map[string]int64

// checkForeignKeysOnOpen refuses the database when a row it checks points
// nowhere (see above). It returns the marks to record once the open has
// succeeded, or none when it checked fewer than recordForeignKeysAfter
// rows above the recorded ones. A file with no marks yet is checked by
// SQLite's own check over every row, as before marks existed.
func checkForeignKeysOnOpen(ctx context.Context, q Querier) (foreignKeyMarks, error) {
	tables, err := readChildTables(ctx, q)
	if err != nil {
		return nil, err
	}
	recorded, err := readForeignKeyMarks(ctx, q)
	if err != nil {
		return nil, err
	}
	tops, err := topRowids(ctx, q, tables)
	if err != nil {
		return nil, err
	}
	// A mark anchors rows only when its table still holds a row at it or
	// above; otherwise (rows deleted, a forged mark) it counts as none.
	for name, mark := range recorded {
		if top, ok := tops[name]; !ok || mark < 0 || mark > top {
			delete(recorded, name)
		}
	}
	if len(recorded) == 0 {
		// Nothing recorded (a small file, a copy, marks cleared): SQLite's
		// own check over every row, exactly as before marks existed.
		err = checkAllForeignKeys(ctx, q)
	} else {
		err = checkFromMarks(ctx, q, tables, recorded)
	}
	if err != nil {
		return nil, err
	}
	var checked int64
	for name, top := range tops {
		checked += top - recorded[name]
	}
	if checked < recordForeignKeysAfter {
		return nil, nil
	}
	return tops, nil
}

// topRowids returns the highest rowid of each table checked above a mark.
func topRowids(ctx context.Context, q Querier, tables []childTable) (foreignKeyMarks, error) {
	tops := foreignKeyMarks{}
	for _, t := range tables {
		if !t.byRowid {
			continue
		}
		var top int64
		if err := q.QueryRowContext(ctx, "SELECT coalesce(max(rowid), 0) FROM "+quoteIdent(t.name)).Scan(&top); err != nil {
			return nil, fmt.Errorf("foreign key check of %s: %w", t.name, err)
		}
		tops[t.name] = top
	}
	return tops, nil
}

// checkFromMarks checks each child table as the file's marks allow: by
// index, above its recorded mark, or in full.
func checkFromMarks(ctx context.Context, q Querier, tables []childTable, recorded foreignKeyMarks) error {
	for _, t := range tables {
		var bad bool
		var err error
		from, has := recorded[t.name]
		switch {
		case t.byIndex:
			bad, err = orphanByIndex(ctx, q, t.name, t.keys[0])
		case t.byRowid && has:
			bad, err = orphanAbove(ctx, q, t, from)
		default:
			bad, err = orphanInFull(ctx, q, t.name)
		}
		if err != nil {
			return fmt.Errorf("foreign key check of %s: %w", t.name, err)
		}
		if bad {
			return foreignKeyFailure()
		}
	}
	return nil
}

// checkAllForeignKeys is SQLite's own check over every row of every table.
func checkAllForeignKeys(ctx context.Context, q Querier) error {
	var fkRows int
	if err := q.QueryRowContext(ctx, "SELECT count(*) FROM pragma_foreign_key_check").Scan(&fkRows); err != nil {
		return fmt.Errorf("foreign key check: %w", err)
	}
	if fkRows != 0 {
		return foreignKeyFailure()
	}
	return nil
}

func foreignKeyFailure() error {
	return collaberr.New(collaberr.DatabaseForeignKeyFailure, "The database has rows whose foreign keys point nowhere")
}

// orphanInFull runs SQLite's own check over one table.
func orphanInFull(ctx context.Context, q Querier, table string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, "SELECT count(*) FROM pragma_foreign_key_check(?)", table).Scan(&n)
	return n > 0, err
}

// orphanByIndex walks the distinct non-NULL values of the key's one column
// through the index it leads, looking each up in the parent.
func orphanByIndex(ctx context.Context, q Querier, table string, k foreignKey) (bool, error) {
	col := "c." + quoteIdent(k.children[0])
	probe := fmt.Sprintf("SELECT %s, EXISTS (SELECT 1 FROM %s p WHERE p.%s = %s) FROM %s c WHERE %s ORDER BY %s LIMIT 1",
		col, quoteIdent(k.parent), quoteIdent(k.parents[0]), col, quoteIdent(table), "%s", col)
	first, next := fmt.Sprintf(probe, col+" IS NOT NULL"), fmt.Sprintf(probe, col+" > ?")
	var value any
	var found bool
	err := q.QueryRowContext(ctx, first).Scan(&value, &found)
	for err == nil {
		if !found {
			return true, nil
		}
		if b, ok := value.([]byte); ok {
			value = append([]byte(nil), b...)
		}
		err = q.QueryRowContext(ctx, next, value).Scan(&value, &found)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return false, err
}

// orphanAbove applies the full check's rule to the rows above rowid from:
// a row whose key columns are all non-NULL must match a parent row.
func orphanAbove(ctx context.Context, q Querier, t childTable, from int64) (bool, error) {
	for _, k := range t.keys {
		var notNull, match []string
		for i, c := range k.children {
			notNull = append(notNull, "c."+quoteIdent(c)+" IS NOT NULL")
			match = append(match, "p."+quoteIdent(k.parents[i])+" = c."+quoteIdent(c))
		}
		stmt := fmt.Sprintf("SELECT EXISTS (SELECT 1 FROM %s c WHERE c.rowid > ? AND %s AND NOT EXISTS (SELECT 1 FROM %s p WHERE %s))",
			quoteIdent(t.name), strings.Join(notNull, " AND "), quoteIdent(k.parent), strings.Join(match, " AND "))
		var bad bool
		if err := q.QueryRowContext(ctx, stmt, from).Scan(&bad); err != nil {
			return false, err
		}
		if bad {
			return true, nil
		}
	}
	return false, nil
}

func quoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }
