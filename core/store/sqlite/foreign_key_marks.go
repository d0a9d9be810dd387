package sqlite

import (
	"context"
	"fmt"
)

// recordForeignKeyMark replaces a table's mark. Every mark written is a
// rowid its open checked up to, so a slower opener writing last only
// leaves a lower mark (the next open checks a little more).
const recordForeignKeyMark = `INSERT INTO foreign_keys_checked (table_name, checked_rowid, checked_at)
VALUES (?, ?, ?) ON CONFLICT (table_name) DO UPDATE SET checked_rowid = excluded.checked_rowid,
checked_at = excluded.checked_at`

// readForeignKeyMarks returns the recorded marks by table; nil when the
// file has no such table. A row that does not read is no mark: its table
// is checked in full.
func readForeignKeyMarks(ctx context.Context, q Querier) (foreignKeyMarks, error) {
	if has, err := tableExists(ctx, q, ForeignKeysCheckedTable); err != nil || !has {
		return nil, err
	}
	out := foreignKeyMarks{}
	rows, err := q.QueryContext(ctx, "SELECT table_name, checked_rowid FROM foreign_keys_checked")
	if err != nil {
		return nil, fmt.Errorf("read the checked foreign keys: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var mark int64
		if err := rows.Scan(&name, &mark); err != nil {
			continue
		}
		out[name] = mark
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the checked foreign keys: %w", err)
	}
	return out, nil
}

// recordForeignKeysChecked writes the marks an open checked up to, in one
// write transaction after the open succeeded. Like recordVerified it is
// best effort: a file whose marks cannot be written now opens all the
// same, and its next open checks from the older marks.
func (s *DB) recordForeignKeysChecked(ctx context.Context, marks foreignKeyMarks) {
	if len(marks) == 0 {
		return
	}
	_ = s.writeForeignKeyMarks(ctx, marks) //nolint:errcheck // best effort, see above
}

func (s *DB) writeForeignKeyMarks(ctx context.Context, marks foreignKeyMarks) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin recording the checked foreign keys: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // committed below
	for _, ddl := range ForeignKeysCheckedDDL {
		if _, err := tx.ExecContext(ctx, ddl); err != nil {
			return fmt.Errorf("create the checked foreign key table: %w", err)
		}
	}
	at := s.nowISO()
	for name, mark := range marks {
		if _, err := tx.ExecContext(ctx, recordForeignKeyMark, name, mark, at); err != nil {
			return fmt.Errorf("record the checked rows of %s: %w", name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit the checked foreign keys: %w", err)
	}
	return nil
}

// foreignKeyProblems runs SQLite's full foreign key check and describes
// up to limit rows that point nowhere.
func foreignKeyProblems(ctx context.Context, q Querier, limit int) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT "table", coalesce(rowid, -1), parent FROM pragma_foreign_key_check LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("foreign key check: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var table, parent string
		var rowid int64
		if err := rows.Scan(&table, &rowid, &parent); err != nil {
			return nil, fmt.Errorf("foreign key check: %w", err)
		}
		out = append(out, fmt.Sprintf("foreign key: %s row %d points to no %s row", table, rowid, parent))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("foreign key check: %w", err)
	}
	return out, nil
}
