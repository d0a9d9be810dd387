package transfer

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

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

// serverEnv names the PostgreSQL server the tests use: a URL whose user
// may create databases (.ci/postgres starts one and prints it).
const serverEnv = "COLLAB_TEST_POSTGRES"

// testServer returns the test server's URL, skipping the test when none
// is configured, except in CI, where a missing server is a failure.
func testServer(t testing.TB) string {
	t.Helper()
	url := os.Getenv(serverEnv)
	if url == "" {
		msg := serverEnv + " is not set: start a throwaway server with `eval \"$(.ci/postgres start)\"` " +
			"(stop it with `.ci/postgres stop \"$COLLAB_TEST_POSTGRES_DIR\"`) to run the copy tests against PostgreSQL"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return url
}

// freshDatabase creates an empty database on the test server, dropped when
// the test ends, and returns its URL.
func freshDatabase(t testing.TB) string {
	t.Helper()
	url := testServer(t)
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatalf("parse %s: %v", serverEnv, err)
	}
	admin := stdlib.OpenDB(*cfg)
	t.Cleanup(func() { admin.Close() })
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	name := "collab_copy_" + hex.EncodeToString(b[:])
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE template0 ENCODING 'UTF8'"); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		if _, err := admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop test database %s: %v", name, err)
		}
	})
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatalf("%s is not a URL: %v", serverEnv, err)
	}
	u.Path = "/" + name
	return u.String()
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
