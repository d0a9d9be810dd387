package sqlite

import "github.com/agenttool/collab/core/store/layout"

// The column lists shape validation compares, read from the one table
// description (core/store/layout); TestFreshFileIsTheLayout proves the DDL
// of schema.go creates exactly that description.
var (
	// presenceColumns is the public v0.2 presence table, compared in order.
	presenceColumns = columnsOf(presenceTableName)
	// coordinationColumns is the credential-bound session table, compared
	// in order whatever it is named (the preview called it "sessions").
	coordinationColumns = columnsOf(coordinationTableName)
	// legacyColumns lists the v0.1 columns each v0.1 table must have
	// (any order).
	legacyColumns = legacyTables()
	// v2RequiredColumns lists what the hardened schema adds (any order):
	// the v0.2 columns of v0.1 tables, then the tables v0.2 creates. The
	// two session tables are checked separately, in order.
	v2RequiredColumns = v2Tables()
)

const (
	presenceTableName     = "sessions"
	coordinationTableName = "coordination_sessions"
)

type tableColumns struct {
	table   string
	columns []string
}

// fileTables is every table a SQLite file holds from its creation, in
// the description's order.
func fileTables() []layout.Table {
	var out []layout.Table
	for _, t := range layout.Tables() {
		if t.Home == layout.Journal || t.Home == layout.SQLiteFile {
			out = append(out, t)
		}
	}
	return out
}

func columnsOf(table string) []string {
	t, _ := layout.Find(layout.Tables(), table)
	return layout.Names(t.All())
}

func legacyTables() []tableColumns {
	var out []tableColumns
	for _, t := range fileTables() {
		if t.Since == layout.V1 {
			out = append(out, tableColumns{t.Name, layout.Names(t.Columns)})
		}
	}
	return out
}

func v2Tables() []tableColumns {
	var out []tableColumns
	for _, t := range fileTables() {
		if t.Since == layout.V1 && len(t.Added) > 0 {
			out = append(out, tableColumns{t.Name, layout.Names(t.Added)})
		}
	}
	for _, t := range fileTables() {
		if t.Since == layout.V2 && t.Name != presenceTableName && t.Name != coordinationTableName {
			out = append(out, tableColumns{t.Name, layout.Names(t.Columns)})
		}
	}
	return out
}
