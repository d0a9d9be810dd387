package transfer

import (
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/store/postgres/pgtest"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	_ "modernc.org/sqlite"
)

// The fixtures are the reference's own files, copied from ../shared/fixtures
// into core/store/testdata (byte-identical; see its SHA256SUMS).
var (
	fixtureV040    = filepath.Join("..", "testdata", "fixtures", "versions", "v0.4.0", "collab.sqlite")
	fixtureUnicode = filepath.Join("..", "testdata", "fixtures", "edge", "v0.4.0-unicode-edge", "collab.sqlite")
	fixtureV010    = filepath.Join("..", "testdata", "fixtures", "versions", "v0.1.0", "collab.sqlite")
)

// freshDatabase creates an empty database on the test server, dropped
// when the test ends, and returns its URL.
func freshDatabase(t testing.TB) string {
	t.Helper()
	return pgtest.FreshDatabase(t)
}

// copyFixture copies a fixture file into a fresh directory.
func copyFixture(t testing.TB, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "collab.sqlite")
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}

// dumpSQLite renders every copied table of a SQLite file, read with the
// driver directly (not through this package), each value with its Go type
// and exact bytes. byRowid orders every table by rowid; otherwise the
// tables whose row order the engines keep are in rowid order and the rest
// in primary-key order, which is what survives a trip through PostgreSQL.
func dumpSQLite(t testing.TB, path string, byRowid bool) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b strings.Builder
	for _, tb := range tables {
		order := "rowid"
		if !byRowid && !tb.ordered {
			order = strings.Join(tb.key, ", ")
		}
		rows, err := db.Query("SELECT " + tb.columnList() + " FROM " + tb.name + " ORDER BY " + order)
		if err != nil {
			t.Fatalf("dump %s: %v", tb.name, err)
		}
		dumpRows(t, &b, tb.name, rows)
	}
	return b.String()
}

// dumpPostgres renders every copied table of a PostgreSQL journal the way
// dumpSQLite does without byRowid: row_id order where the engines keep
// one, primary-key order elsewhere.
func dumpPostgres(t testing.TB, url string) string {
	t.Helper()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	var b strings.Builder
	for _, tb := range tables {
		order := strings.Join(tb.key, ", ")
		if tb.ordered {
			order = "row_id"
		}
		rows, err := db.Query("SELECT " + tb.columnList() + " FROM collab." + tb.name + " ORDER BY " + order)
		if err != nil {
			t.Fatalf("dump %s: %v", tb.name, err)
		}
		dumpRows(t, &b, tb.name, rows)
	}
	return b.String()
}

func dumpRows(t testing.TB, b *strings.Builder, name string, rows *sql.Rows) {
	t.Helper()
	defer rows.Close()
	n := 0
	fmt.Fprintf(b, "== %s\n", name)
	err := eachRow(rows, func(vals []any) error {
		n++
		for _, v := range vals {
			fmt.Fprintf(b, "%T:%q ", v, v)
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatalf("dump %s: %v", name, err)
	}
}

// rowCount is the number of rows in every copied table.
func rowCount(t testing.TB, dump string) int {
	t.Helper()
	n := 0
	for _, line := range strings.Split(dump, "\n") {
		if line != "" && !strings.HasPrefix(line, "== ") {
			n++
		}
	}
	return n
}
