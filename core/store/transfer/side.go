package transfer

import "context"

// reader runs queries inside one snapshot (a source) or one transaction
// (a target).
type reader interface {
	// each runs query, written with ? placeholders, and calls fn with each
	// row's values: nil, int64, float64, string or []byte. The slice is
	// reused between rows.
	each(ctx context.Context, query string, args []any, fn func(vals []any) error) error
	// columns lists a table's columns in order, leaving out PostgreSQL's
	// row_id; nil when there is no such table.
	columns(ctx context.Context, table string) ([]string, error)
	// orderBy is the ORDER BY clause that reads t in the order this engine
	// keeps its rows: rowid on SQLite; row_id, else the primary key, on
	// PostgreSQL.
	orderBy(t table) string
}

// writer is a target's one transaction.
type writer interface {
	reader
	// clear deletes every row of every copied table.
	clear(ctx context.Context) error
	// insert appends rows to t, in order, so that the engine's row order
	// is theirs.
	insert(ctx context.Context, t table, rows [][]any) error
	// batch is how many rows of t one insert call should carry.
	batch(t table) int
	// exec runs one statement that takes no arguments.
	exec(ctx context.Context, stmt string) error
	// create makes a table kept beside the journal that the target
	// lacks, from its SQLite statements, or refuses where the engine
	// makes its own.
	create(ctx context.Context, name string, ddl []string) error
}

// source is a database a copy reads.
type source interface {
	// snapshot runs fn against one consistent, read-only view.
	snapshot(ctx context.Context, fn func(r reader) error) error
	close() error
}

// target is a database a copy writes.
type target interface {
	// transaction runs fn in one transaction, committed when fn returns
	// nil and rolled back otherwise, holding off other writers meanwhile.
	transaction(ctx context.Context, fn func(w writer) error) error
	close() error
}
