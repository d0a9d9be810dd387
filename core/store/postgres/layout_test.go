package postgres

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/store/layout"
	"github.com/agenttool/collab/core/store/sqltx"
)

// TestDDLIsTheLayout reads this engine's DDL text (schema.go and the
// delivery and session host tables') and requires every table it creates to have exactly
// the columns of the one table description, in order, with their types,
// NOT NULL, defaults and primary key, plus row_id where rows keep their
// insertion order; and no table the description does not hold here. It
// needs no server.
func TestDDLIsTheLayout(t *testing.T) {
	ddl := append(append(slices.Clone(tables), sqltx.DeliveriesDDL...), schemaVersionDDL)
	for _, stmt := range sqltx.SessionHostsDDL {
		ddl = append(ddl, sessionHostsDDL(stmt))
	}
	requireSameTables(t, parseDDL(ddl), describedSchema())
}

// TestFreshSchemaIsTheLayout creates the schema on a server and requires
// what information_schema then reports to be the description, as
// TestDDLIsTheLayout requires of the text.
func TestFreshSchemaIsTheLayout(t *testing.T) {
	url := freshDatabase(t)
	e, err := Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
	db := rawDB(t, url)
	keys := map[string][]string{}
	rows, err := db.Query(`SELECT c.table_name, k.column_name FROM information_schema.table_constraints AS c
JOIN information_schema.key_column_usage AS k USING (constraint_schema, constraint_name, table_name)
WHERE c.table_schema = $1 AND c.constraint_type = 'PRIMARY KEY' ORDER BY c.table_name, k.ordinal_position`, SchemaName)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var table, column string
		if err := rows.Scan(&table, &column); err != nil {
			t.Fatal(err)
		}
		keys[table] = append(keys[table], column)
	}
	rows.Close()
	rows, err = db.Query(`SELECT table_name, column_name, upper(data_type), is_nullable = 'NO', coalesce(column_default, ''),
is_identity = 'YES' FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position`, SchemaName)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[string][]string{}
	for rows.Next() {
		var table, column, typ, def string
		var notNull, identity bool
		if err := rows.Scan(&table, &column, &typ, &notNull, &def, &identity); err != nil {
			t.Fatal(err)
		}
		def = strings.TrimSuffix(def, "::text")
		pk := slices.Index(keys[table], column) + 1
		got[table] = append(got[table], render(column, typ, notNull || pk > 0, def, pk, identity))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	requireSameTables(t, got, describedSchema())
}

// describedSchema renders the description's PostgreSQL tables as the
// tests above render a schema. A key column is NOT NULL here whatever it
// declares: PostgreSQL makes it so.
func describedSchema() map[string][]string {
	out := map[string][]string{}
	for _, tb := range layout.Tables() {
		if !tb.InPostgres() {
			continue
		}
		var cols []string
		for _, c := range tb.All() {
			typ := map[layout.Type]string{layout.Text: "TEXT", layout.Integer: "BIGINT"}[c.Type]
			pk := slices.Index(tb.Key, c.Name) + 1
			cols = append(cols, render(c.Name, typ, c.NotNull || pk > 0, c.Default, pk, false))
		}
		if tb.RowOrdered {
			cols = append(cols, render(layout.RowIDColumn, "BIGINT", true, "", 0, true))
		}
		out[tb.Name] = cols
	}
	return out
}

func render(name, typ string, notNull bool, def string, pk int, identity bool) string {
	return fmt.Sprintf("%s %s notnull=%v default=%q pk=%d identity=%v", name, typ, notNull, def, pk, identity)
}

var (
	createTable = regexp.MustCompile(`^CREATE TABLE (?:IF NOT EXISTS )?(\w+) \(`)
	defaultOf   = regexp.MustCompile(`\bDEFAULT ('[^']*'|[^ ,]+)`)
	tableKey    = regexp.MustCompile(`^PRIMARY KEY ?\(([^)]*)\)`)
)

// parseDDL reads the CREATE TABLE statements of ddl (one column or
// constraint a line, as schema.go writes them) and renders their columns.
func parseDDL(ddl []string) map[string][]string {
	out := map[string][]string{}
	for _, stmt := range ddl {
		lines := strings.Split(strings.TrimSpace(stmt), "\n")
		m := createTable.FindStringSubmatch(lines[0])
		if m == nil {
			continue
		}
		type column struct {
			name, typ, def    string
			notNull, identity bool
		}
		var cols []column
		var key []string
		for _, line := range lines[1:] {
			line = strings.TrimSuffix(strings.TrimSpace(line), ",")
			if k := tableKey.FindStringSubmatch(line); k != nil {
				key = strings.Split(strings.ReplaceAll(k[1], " ", ""), ",")
			}
			word, rest, _ := strings.Cut(line, " ")
			if word == "" || strings.HasPrefix(word, ")") || isConstraint(word) {
				continue
			}
			typ, _, _ := strings.Cut(rest, " ")
			c := column{name: word, typ: typ, notNull: strings.Contains(rest, "NOT NULL"),
				identity: strings.Contains(rest, "GENERATED ALWAYS AS IDENTITY")}
			if d := defaultOf.FindStringSubmatch(rest); d != nil {
				c.def = d[1]
			}
			if strings.Contains(rest, "PRIMARY KEY") {
				key = []string{word}
			}
			cols = append(cols, c)
		}
		for _, c := range cols {
			pk := slices.Index(key, c.name) + 1
			out[m[1]] = append(out[m[1]], render(c.name, c.typ, c.notNull || pk > 0 || c.identity, c.def, pk, c.identity))
		}
	}
	return out
}

// isConstraint reports whether a line that starts with word is a table
// constraint rather than a column.
func isConstraint(word string) bool {
	for _, c := range []string{"PRIMARY", "UNIQUE", "FOREIGN", "CHECK", "CONSTRAINT"} {
		if strings.HasPrefix(word, c) {
			return true
		}
	}
	return false
}

func requireSameTables(t *testing.T, got, want map[string][]string) {
	t.Helper()
	for name, cols := range want {
		if !slices.Equal(got[name], cols) {
			t.Errorf("table %s:\n schema      %q\n description %q", name, got[name], cols)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("the schema has table %s, which the description does not name", name)
		}
	}
}
