package transfer

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store/sqlite"
)

// sqliteVariables bounds the placeholders of one multi-row INSERT, under
// SQLite's limit of 32,766.
const sqliteVariables = 30000

// sqliteBatchRows caps the rows of one multi-row INSERT.
const sqliteBatchRows = 500

// openSQLiteSource opens path read-only for one look, never migrating it:
// a copy does not change its source. A file whose schema predates this
// binary's is refused with ErrOlderSchema.
func openSQLiteSource(ctx context.Context, path string) (*sqliteSide, error) {
	db, err := sqlite.Open(ctx, sqlite.Options{Path: path, Inspect: true})
	if err != nil {
		return nil, fmt.Errorf("open the source %s: %w", path, err)
	}
	if err := refuseOlder(ctx, db, path); err != nil {
		db.Close()
		return nil, err
	}
	return &sqliteSide{db: db}, nil
}

func refuseOlder(ctx context.Context, db *sqlite.DB, path string) error {
	older, err := db.NeedsMigration(ctx)
	if err != nil {
		return err
	}
	if older {
		v, _ := db.UserVersion(ctx)
		return fmt.Errorf("%w: %s is at schema version %d, this collab writes %d; open it once with this collab "+
			"(start the server on it: AGENTOOL_COLLAB_DB=%s agenttool-collab-mcp, or any tool call), then copy again",
			ErrOlderSchema, path, v, sqlite.SchemaVersion, path)
	}
	return nil
}

// sqliteSide is an open SQLite file, as a source or a target.
type sqliteSide struct {
	db      *sqlite.DB
	created bool // the copy created the file, and removes it on failure
}

func (s *sqliteSide) close() error { return s.db.Close() }

// snapshot runs fn inside one deferred read transaction on one connection:
// every query sees the file as of the first.
func (s *sqliteSide) snapshot(ctx context.Context, fn func(r reader) error) error {
	conn, err := s.db.ReadPool().Conn(ctx)
	if err != nil {
		return fmt.Errorf("open read connection: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return fmt.Errorf("begin read: %w", err)
	}
	defer conn.ExecContext(context.Background(), "ROLLBACK") //nolint:errcheck // read-only snapshot
	return fn(sqliteReader{q: conn})
}

// openSQLiteTarget opens (creating when missing) the file a copy writes.
// An existing file is first looked at read-only, so that one this copy
// must refuse (an older schema, or rows without replace) is not migrated
// or otherwise touched.
func openSQLiteTarget(ctx context.Context, path string, replace bool) (*sqliteSide, error) {
	_, err := os.Lstat(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("inspect the target %s: %w", path, err)
	}
	if exists {
		if err := precheckSQLiteTarget(ctx, path, replace); err != nil {
			return nil, err
		}
	}
	db, err := sqlite.Open(ctx, sqlite.Options{Path: path})
	if err != nil {
		if !exists {
			removeSQLiteFile(path)
		}
		return nil, fmt.Errorf("open the target %s: %w", path, err)
	}
	return &sqliteSide{db: db, created: !exists}, nil
}

func precheckSQLiteTarget(ctx context.Context, path string, replace bool) error {
	db, err := sqlite.Open(ctx, sqlite.Options{Path: path, Inspect: true})
	if err != nil {
		return fmt.Errorf("open the target %s: %w", path, err)
	}
	defer db.Close()
	if err := refuseOlder(ctx, db, path); err != nil {
		return err
	}
	if replace {
		return nil
	}
	return (&sqliteSide{db: db}).snapshot(ctx, func(r reader) error { return refuseRows(ctx, r) })
}

// removeSQLiteFile deletes a file the copy created, and its sidecars.
func removeSQLiteFile(path string) {
	for _, p := range []string{path, path + place.WALSuffix, path + "-shm", path + "-journal"} {
		_ = os.Remove(p)
	}
}

// transaction runs fn in one IMMEDIATE transaction with foreign keys
// checked at commit (rows may arrive before the rows they reference, as a
// PostgreSQL source's primary-key order can deliver them) and a write
// guard held, since the v0.2 triggers refuse session_v2 task rows
// otherwise.
func (s *sqliteSide) transaction(ctx context.Context, fn func(w writer) error) error {
	return s.db.Write(ctx, func(tx *sqlite.Tx) error {
		if _, err := tx.ExecContext(ctx, "PRAGMA defer_foreign_keys = ON"); err != nil {
			return fmt.Errorf("defer foreign keys: %w", err)
		}
		var nonce [16]byte
		if _, err := rand.Read(nonce[:]); err != nil {
			return err
		}
		release, err := tx.TakeWriteGuard(ctx, "copy_"+hex.EncodeToString(nonce[:]))
		if err != nil {
			return err
		}
		if err := fn(sqliteWriter{sqliteReader{q: tx}}); err != nil {
			return err
		}
		return release(ctx)
	})
}

// sqliteReader queries one connection or transaction.
type sqliteReader struct{ q sqlite.Querier }

func (r sqliteReader) each(ctx context.Context, query string, args []any, fn func(vals []any) error) error {
	rows, err := r.q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	return eachRow(rows, fn)
}

// eachRow scans every row of rows into one reused slice of values.
func eachRow(rows *sql.Rows, fn func(vals []any) error) error {
	names, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if err := fn(vals); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (r sqliteReader) columns(ctx context.Context, name string) ([]string, error) {
	var out []string
	err := r.each(ctx, "SELECT name FROM pragma_table_info(?) ORDER BY cid", []any{name}, func(vals []any) error {
		out = append(out, fmt.Sprint(vals[0]))
		return nil
	})
	return out, err
}

func (sqliteReader) orderBy(table) string { return "rowid" }

// sqliteWriter is the target transaction of a SQLite file.
type sqliteWriter struct{ sqliteReader }

// clear empties the target's journal tables, and what the target's opens
// recorded having checked (sqlite.VerifiedHeadsTable,
// sqlite.ForeignKeysCheckedTable) or derived (sqlite.IndependenceFoldsTable):
// those described the journal being replaced, and a copied journal is
// checked in full on its first open and folds its claims from genesis.
// The target's task counts (sqlite.TaskCountsTable) are left to their
// triggers, which follow these deletes and the copy's inserts.
func (w sqliteWriter) clear(ctx context.Context) error {
	for i := len(tables) - 1; i >= 0; i-- {
		if _, err := w.q.ExecContext(ctx, "DELETE FROM "+tables[i].name); err != nil {
			return fmt.Errorf("clear %s: %w", tables[i].name, err)
		}
	}
	for _, record := range []string{sqlite.VerifiedHeadsTable, sqlite.ForeignKeysCheckedTable, sqlite.IndependenceFoldsTable} {
		got, err := w.columns(ctx, record)
		if err != nil {
			return fmt.Errorf("read the target's %s columns: %w", record, err)
		}
		if got != nil {
			if _, err := w.q.ExecContext(ctx, "DELETE FROM "+record); err != nil {
				return fmt.Errorf("clear %s: %w", record, err)
			}
		}
	}
	return nil
}

func (w sqliteWriter) exec(ctx context.Context, stmt string) error {
	_, err := w.q.ExecContext(ctx, stmt)
	return err
}

func (w sqliteWriter) create(ctx context.Context, name string, ddl []string) error {
	for _, stmt := range ddl {
		if err := w.exec(ctx, stmt); err != nil {
			return fmt.Errorf("create %s: %w", name, err)
		}
	}
	return nil
}

func (w sqliteWriter) batch(t table) int {
	return max(1, min(sqliteBatchRows, sqliteVariables/len(t.columns)))
}

func (w sqliteWriter) insert(ctx context.Context, t table, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(t.columns)), ", ") + ")"
	var b strings.Builder
	b.WriteString("INSERT INTO " + t.name + " (" + t.columnList() + ") VALUES ")
	args := make([]any, 0, len(rows)*len(t.columns))
	for i, r := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(row)
		args = append(args, r...)
	}
	if _, err := w.q.ExecContext(ctx, b.String(), args...); err != nil {
		return fmt.Errorf("insert into %s: %w", t.name, err)
	}
	return nil
}
