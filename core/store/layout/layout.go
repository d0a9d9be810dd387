// Package layout describes, once, the tables a collab database holds: each
// table's columns in their stored order, with type, nullability and
// default, its primary key, and which engine holds it. The engines keep
// their DDL as text (SQLite's must stay byte for byte what the reference
// stores in sqlite_master); this description is what their shape checks
// and the copy between engines read their column lists from, and tests in
// each engine prove that its DDL creates exactly what is described here.
package layout

// Type is a column's storage type as both engines declare it: SQLite
// TEXT or INTEGER, PostgreSQL TEXT or BIGINT (64-bit, as SQLite's).
type Type int

const (
	// Text is a text column (bytewise ordered on both engines).
	Text Type = iota + 1
	// Integer is a 64-bit integer column; flags are integers 0 or 1.
	Integer
)

// Since says which protocol's schema first has a column or table.
type Since int

const (
	// V1 is the v0.1 schema: its seven tables as it created them.
	V1 Since = iota + 1
	// V2 is what the v0.2 migration adds: ALTER TABLE columns appended
	// to v0.1 tables, and the tables it creates.
	V2
)

// Home says which engine holds a table and whether it belongs to the
// journal a copy between engines carries.
type Home int

const (
	// Journal tables hold the workspaces, their journals and everything
	// recorded beside them: both engines create them and a copy carries
	// every row.
	Journal Home = iota + 1
	// SQLiteFile tables describe a SQLite file itself (its migration
	// ledger, the write-guard row): only SQLite has them, and a copy
	// leaves each side its own.
	SQLiteFile
	// PostgresSchema tables describe the PostgreSQL schema itself (its
	// version): only PostgreSQL has them.
	PostgresSchema
	// Beside tables hold facts kept outside the hash chain (delivery
	// receipts, session hosts): both engines have them, SQLite from their
	// first use rather than in a fresh file; a copy carries their rows
	// where the source has them (core/store/transfer).
	Beside
	// SQLiteRecord tables are what a SQLite file records about itself
	// (the journal heads an open verified, see
	// core/store/sqlite/verified_heads.go; the task counts its triggers
	// keep, task_counts.go) and state derived from its journals (a fold of
	// each one's independence claims, independence_folds.go), from their
	// first use: only SQLite has them, and a copy leaves each side its own,
	// so a copied journal verifies in full and folds its claims from
	// genesis on its first open in the target, and a target's counts are
	// those of its own rows.
	SQLiteRecord
)

// Column is one column of a table.
type Column struct {
	Name string
	Type Type
	// NotNull is the column's declared NOT NULL. A primary-key column
	// declared without it (SQLite's `id TEXT PRIMARY KEY`) is false here,
	// though PostgreSQL refuses NULLs in it.
	NotNull bool
	// Default is the declared default as an SQL literal ("0", "''",
	// "'legacy_v1'"), or "" for none.
	Default string
}

// Table is one table: its columns in stored order, the v0.1 ones first and
// the v0.2 additions after them, as ALTER TABLE appended them.
type Table struct {
	Name  string
	Home  Home
	Since Since
	// Columns are the table's columns as the schema of Since created it.
	Columns []Column
	// Added are the columns the v0.2 migration appends to a v0.1 table,
	// in order (empty for a table created by v0.2).
	Added []Column
	// Key is the primary key, in key order.
	Key []string
	// RowOrdered says that reads rely on the order rows were inserted in
	// (SQLite's rowid); PostgreSQL keeps it in a trailing identity column,
	// RowIDColumn.
	RowOrdered bool
}

// RowIDColumn is the identity column PostgreSQL appends to a RowOrdered
// table to keep the insertion order SQLite's rowid keeps.
const RowIDColumn = "row_id"

// All returns the table's columns in stored order: Columns, then Added.
func (t Table) All() []Column {
	return append(append([]Column{}, t.Columns...), t.Added...)
}

// Names returns the names of cols, in order.
func Names(cols []Column) []string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return names
}

// InSQLite reports whether a current SQLite file holds the table (Beside
// and SQLiteRecord tables from their first use).
func (t Table) InSQLite() bool { return t.Home != PostgresSchema }

// InPostgres reports whether a current PostgreSQL schema holds the table.
func (t Table) InPostgres() bool { return t.Home != SQLiteFile && t.Home != SQLiteRecord }

// Of returns the tables of tables whose home is h, in order.
func Of(tables []Table, h Home) []Table {
	var out []Table
	for _, t := range tables {
		if t.Home == h {
			out = append(out, t)
		}
	}
	return out
}

// Find returns the table named name, and whether there is one.
func Find(tables []Table, name string) (Table, bool) {
	for _, t := range tables {
		if t.Name == name {
			return t, true
		}
	}
	return Table{}, false
}
