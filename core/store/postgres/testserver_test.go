package postgres

import (
	"testing"

	"github.com/agenttool/collab/core/store/postgres/pgtest"
)

// serverEnv names the PostgreSQL server the tests use (pgtest.ServerEnv).
const serverEnv = pgtest.ServerEnv

// testServer returns the test server's URL (pgtest.Server).
func testServer(t testing.TB) string { return pgtest.Server(t) }

// freshDatabase creates an empty database on the test server, dropped when
// the test ends, and returns its URL (pgtest.FreshDatabase).
func freshDatabase(t testing.TB) string { return pgtest.FreshDatabase(t) }
