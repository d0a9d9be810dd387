package main

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/store/postgres/pgtest"
)

// leastPrivilegeGrants are what the runtime role of docs/postgres.md
// ("Least-privilege role") is granted once an owner role has created the
// collab schema: no ownership, no CREATE, no DELETE (the engine never
// deletes a row), only the use of the schema and the reading, adding and
// changing of its rows. %s is the role, %d the database.
var leastPrivilegeGrants = []string{
	`GRANT CONNECT ON DATABASE %d TO %s`,
	`GRANT USAGE ON SCHEMA collab TO %s`,
	`GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA collab TO %s`,
}

// leastPrivilegeJournal sets up a fresh journal the way docs/postgres.md
// recommends and points s at it: the server, run once as the owner (the
// test server's superuser) with nothing on stdin, creates the collab
// schema and exits; a new login role that owns nothing gets
// leastPrivilegeGrants; s.db becomes that role's URL (with drillPassword).
// It returns a connection as the owner, for changing grants, and the
// role's name. The role is dropped when the test ends.
func leastPrivilegeJournal(t *testing.T, s *sandbox) (*sql.DB, string) {
	t.Helper()
	admin := adminDB(t, pgtest.Server(t))
	role := "collab_role_" + randomHex(t)
	// Registered before the database, so it runs after the database is
	// dropped (cleanups run last-registered first): only then does the
	// role hold no privileges anywhere.
	t.Cleanup(func() {
		if _, err := admin.Exec("DROP ROLE IF EXISTS " + role); err != nil {
			t.Errorf("drop role %s: %v", role, err)
		}
	})
	db := pgtest.FreshDatabase(t)
	s.db = db
	if out, code := s.runCommand(t); code != 0 {
		t.Fatalf("first open as the owner: exit %d: %s", code, out)
	}
	owner := adminDB(t, db)
	var made bool
	if err := owner.QueryRow(`SELECT EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = 'collab' AND tablename = 'schema_version')`).
		Scan(&made); err != nil || !made {
		t.Fatalf("the first open as the owner made no collab schema (%v)", err)
	}
	mustExec(t, admin, "CREATE ROLE "+role+" LOGIN")
	for _, g := range leastPrivilegeGrants {
		mustExec(t, owner, strings.NewReplacer("%d", databaseName(t, db), "%s", role).Replace(g))
	}
	s.db = withPassword(t, db, role)
	return owner, role
}
