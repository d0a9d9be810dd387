package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agenttool/collab/core/store/layout"
	"github.com/agenttool/collab/core/store/sqltx"
)

// TestFreshFileIsTheLayout creates a database with this engine's DDL and
// requires its tables and columns (name, order, declared type, NOT NULL,
// default, primary key) to be exactly the SQLite tables of the one table
// description, and no others: the DDL text stays what the reference
// stores, and this proves the description says the same.
func TestFreshFileIsTheLayout(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "collab.sqlite")
	db, err := Open(ctx, Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	raw := rawFile(t, path)
	for _, ddl := range slices.Concat(sqltx.DeliveriesDDL, sqltx.SessionHostsDDL, VerifiedHeadsDDL, ForeignKeysCheckedDDL, IndependenceFoldsDDL, TaskCountsDDL) { // created on first use
		if _, err := raw.ExecContext(ctx, ddl); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string][]string{}
	for _, tb := range layout.Tables() {
		if tb.InSQLite() {
			want[tb.Name] = describedColumns(tb, tb.All())
		}
	}
	requireSameTables(t, fileColumns(t, raw), want)
}

// TestLegacyDDLIsTheLayoutsV1 runs the v0.1 DDL alone and requires it to
// create exactly the description's v0.1 tables with their v0.1 columns,
// so that the split between Columns and Added (which shape validation
// reads for files of each version) is the one the DDL makes.
func TestLegacyDDLIsTheLayoutsV1(t *testing.T) {
	ctx := context.Background()
	raw := rawFile(t, filepath.Join(t.TempDir(), "legacy.sqlite"))
	for _, ddl := range legacySchema {
		if _, err := raw.ExecContext(ctx, ddl); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string][]string{}
	for _, tb := range layout.Tables() {
		if tb.Since == layout.V1 {
			want[tb.Name] = describedColumns(tb, tb.Columns)
		}
	}
	requireSameTables(t, fileColumns(t, raw), want)
}

func rawFile(t *testing.T, path string) *sql.DB {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return raw
}

// describedColumns renders cols of tb as fileColumns renders a file's.
func describedColumns(tb layout.Table, cols []layout.Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		typ := map[layout.Type]string{layout.Text: "TEXT", layout.Integer: "INTEGER"}[c.Type]
		def := "NULL"
		if c.Default != "" {
			def = c.Default
		}
		out[i] = fmt.Sprintf("%s %s notnull=%v default=%s pk=%d", c.Name, typ, c.NotNull, def,
			slices.Index(tb.Key, c.Name)+1)
	}
	return out
}

// fileColumns renders every table's columns as pragma_table_info gives them.
func fileColumns(t *testing.T, raw *sql.DB) map[string][]string {
	t.Helper()
	rows, err := raw.Query(`SELECT m.name, p.name, p.type, p."notnull", coalesce(p.dflt_value, 'NULL'), p.pk
FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p
WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[string][]string{}
	for rows.Next() {
		var table, name, typ, def string
		var notNull bool
		var pk int
		if err := rows.Scan(&table, &name, &typ, &notNull, &def, &pk); err != nil {
			t.Fatal(err)
		}
		got[table] = append(got[table], fmt.Sprintf("%s %s notnull=%v default=%s pk=%d", name, typ, notNull, def, pk))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}

func requireSameTables(t *testing.T, got, want map[string][]string) {
	t.Helper()
	for name, cols := range want {
		if !slices.Equal(got[name], cols) {
			t.Errorf("table %s:\n file        %q\n description %q", name, got[name], cols)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("the file has table %s, which the description does not name", name)
		}
	}
}
