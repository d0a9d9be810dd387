package postgres

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	neturl "net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
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
			"(stop it with `.ci/postgres stop \"$COLLAB_TEST_POSTGRES_DIR\"`) to run the PostgreSQL engine tests"
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
	name := "collab_test_" + hex.EncodeToString(b[:])
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE template0 ENCODING 'UTF8'"); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() { dropDatabase(t, admin, name) })
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatalf("%s is not a URL: %v", serverEnv, err)
	}
	u.Path = "/" + name
	return u.String()
}

func dropDatabase(t testing.TB, admin *sql.DB, name string) {
	if _, err := admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		t.Errorf("drop test database %s: %v", name, err)
	}
}
