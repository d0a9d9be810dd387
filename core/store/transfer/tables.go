package transfer

import (
	"strings"

	"github.com/agenttool/collab/core/store/layout"
)

// table is one collab table as both engines hold it: its name, its
// columns in schema order, the columns of its primary key, and whether
// the engines keep its rows' insertion order (SQLite's rowid, PostgreSQL's
// identity row_id), which some reads sort by.
type table struct {
	name    string
	columns []string
	key     []string
	ordered bool
}

// tables is every table of a collab journal (the Journal tables of the one
// table description, core/store/layout), in an order in which each
// table's references point at tables already copied. SQLite's
// v2_write_guard (a lock row held only inside a transaction) and
// schema_migrations, and PostgreSQL's schema_version, describe the file or
// schema itself, not the journal, and are not copied: each target keeps its
// own. The column lists are checked against both sides before anything is
// copied (see checkColumns), so a schema change on either engine that the
// description misses stops the copy instead of losing a column.
var tables = journalTables()

func journalTables() []table {
	var out []table
	for _, t := range layout.Of(layout.Tables(), layout.Journal) {
		out = append(out, table{name: t.Name, columns: layout.Names(t.All()), key: t.Key, ordered: t.RowOrdered})
	}
	return out
}

// columnList is the table's columns for a SELECT or INSERT.
func (t table) columnList() string { return strings.Join(t.columns, ", ") }

// tableNames lists every copied table, in copy order.
func tableNames() []string {
	names := make([]string, len(tables))
	for i, t := range tables {
		names[i] = t.name
	}
	return names
}
