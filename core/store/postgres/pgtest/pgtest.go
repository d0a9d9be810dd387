// Package pgtest gives tests a fresh PostgreSQL database on the test
// server named by COLLAB_TEST_POSTGRES (.ci/postgres starts one). Without
// it, a test skips with instructions, except under CI=true, where a
// missing server is a failure.
package pgtest

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

// ServerEnv names the PostgreSQL server the tests use: a URL whose user
// may create databases.
const ServerEnv = "COLLAB_TEST_POSTGRES"

// Server returns the test server's URL, skipping the test when none is
// configured, except in CI, where a missing server is a failure.
func Server(t testing.TB) string {
	t.Helper()
	url := os.Getenv(ServerEnv)
	if url == "" {
		msg := ServerEnv + " is not set: start a throwaway server with `eval \"$(.ci/postgres start)\"` " +
			"(stop it with `.ci/postgres stop \"$COLLAB_TEST_POSTGRES_DIR\"`) to run the PostgreSQL tests"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return url
}

// FreshDatabase creates an empty database on the test server, dropped
// (its connections ended) when the test ends, and returns its URL.
func FreshDatabase(t testing.TB) string {
	t.Helper()
	return FreshDatabaseOn(t, Server(t))
}

// FreshDatabaseOn is FreshDatabase on the server url names (as
// COLLAB_TEST_POSTGRES would, such as an OwnServer's URL).
func FreshDatabaseOn(t testing.TB, url string) string {
	t.Helper()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatalf("parse %s: %v", ServerEnv, err)
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
	t.Cleanup(func() { drop(t, admin, name) })
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatalf("%s is not a URL: %v", ServerEnv, err)
	}
	u.Path = "/" + name
	return u.String()
}

func drop(t testing.TB, admin *sql.DB, name string) {
	if _, err := admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		t.Errorf("drop test database %s: %v", name, err)
	}
}
