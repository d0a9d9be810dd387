package main

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/agenttool/collab/core/store/postgres/pgtest"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// Failure drills on a PostgreSQL journal (issue 21): real server
// processes appending to one journal while the test kills one of them,
// ends their database connections, restarts the database server, or
// revokes their role's privileges. Each waits on acknowledgements, never
// on time, and ends with pgBurst.finish's checks.

// drillServers is how many server processes share the journal in a drill.
const drillServers = 3

// lostConnection accepts the refusal a client may see while the database
// connection is lost: internal_error saying so (the engine's
// ErrConnectionLost), or write_outcome_unknown for a COMMIT the journal
// cannot place, which the client answers by repeating the call with the
// same idempotency key.
func lostConnection(r mcptest.Result) bool {
	msg, _ := r.Structured["message"].(string)
	return (r.Code() == "internal_error" || r.Code() == "write_outcome_unknown") &&
		strings.Contains(msg, "connection to the PostgreSQL server")
}

// TestPostgresDrillKillOneServerMidBurst kills (SIGKILL) one of three
// servers appending to one journal: the others carry on without a single
// refusal, and every acknowledged report is in the journal exactly once,
// the sequence gapless and the chain valid.
func TestPostgresDrillKillOneServerMidBurst(t *testing.T) {
	s := newSandbox(t)
	s.db = withPassword(t, pgtest.FreshDatabase(t), "")
	b := startPgBurst(t, s, drillServers, nil, nil)
	b.waitUntil("every server has appended", b.progressed(b.all(), 3))
	b.clients[0].Kill()
	b.waitUntil("the killed server's worker has noticed", func() bool { return b.gone[0] })
	b.waitUntil("the other servers have appended again", b.progressed([]int{1, 2}, 5))
	b.finish(0)
}

// TestPostgresDrillEndedConnectionsReconnect ends every connection to the
// journal's database (pg_terminate_backend, as an operator or a failover
// does) three times mid-pgBurst: the servers reconnect by themselves, a
// client sees success or a clear lost-connection refusal it can replay,
// and nothing acknowledged is lost or doubled.
func TestPostgresDrillEndedConnectionsReconnect(t *testing.T) {
	s := newSandbox(t)
	db := pgtest.FreshDatabase(t)
	s.db = withPassword(t, db, "")
	admin := adminDB(t, pgtest.Server(t))
	name := databaseName(t, db)
	b := startPgBurst(t, s, drillServers, lostConnection, nil)
	for round := 0; round < 3; round++ {
		b.waitUntil("every server has appended", b.progressed(b.all(), 3))
		var ended int
		// The victims are chosen first (a MATERIALIZED CTE), so that the
		// planner cannot call pg_terminate_backend on rows of other
		// databases (other tests) before filtering them out. With a
		// timeout, it returns once the backend is gone.
		if err := admin.QueryRow(`WITH victims AS MATERIALIZED (SELECT pid FROM pg_stat_activity
  WHERE datname = $1 AND pid <> pg_backend_pid())
SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 60000)) FROM victims`, name).Scan(&ended); err != nil {
			t.Fatalf("end connections: %v", err)
		}
		t.Logf("round %d: ended %d connections", round, ended)
	}
	b.waitUntil("every server has appended after the last round", b.progressed(b.all(), 3))
	b.finish()
}

// TestPostgresDrillServerRestartMidBurst restarts the database server
// (fast shutdown, on a server of the test's own) while three servers
// append: the same server processes keep working afterwards, a client
// sees success or a clear lost-connection refusal it can replay, and
// nothing acknowledged is lost or doubled.
func TestPostgresDrillServerRestartMidBurst(t *testing.T) {
	own := pgtest.StartOwnServer(t)
	s := newSandbox(t)
	s.db = withPassword(t, pgtest.FreshDatabaseOn(t, own.URL), "")
	b := startPgBurst(t, s, drillServers, lostConnection, nil)
	for round := 0; round < 2; round++ {
		b.waitUntil("every server has appended", b.progressed(b.all(), 3))
		own.Restart(t)
	}
	b.waitUntil("every server has appended after the restarts", b.progressed(b.all(), 3))
	b.finish()
}

// TestPostgresDrillRevokedPrivilege runs three servers as a
// least-privilege role that owns nothing (leastPrivilegeJournal), and
// revokes INSERT on the reports table mid-burst: each client gets a
// refusal naming the refused table and the missing privilege, with no
// password or address in it; every server keeps running and still
// answers reads; after GRANT the same servers append again, and nothing
// acknowledged is lost or doubled.
func TestPostgresDrillRevokedPrivilege(t *testing.T) {
	s := newSandbox(t)
	ownerDB, role := leastPrivilegeJournal(t, s)
	name := databaseName(t, s.db)
	granted := make(chan struct{})
	denied := func(r mcptest.Result) bool {
		msg, _ := r.Structured["message"].(string)
		return r.Code() == "internal_error" && strings.Contains(msg, "lacks a privilege") &&
			strings.Contains(msg, "permission denied for table reports")
	}
	b := startPgBurst(t, s, drillServers, denied, func(_ int, stop <-chan struct{}) {
		select {
		case <-granted:
		case <-stop:
		}
	})
	b.waitUntil("every server has appended", b.progressed(b.all(), 3))
	mustExec(t, ownerDB, "REVOKE INSERT ON collab.reports FROM "+role)
	b.waitUntil("every client has been refused", func() bool {
		for _, n := range b.refused {
			if n == 0 {
				return false
			}
		}
		return true
	})
	for i, c := range b.clients {
		if r := call(t, c, "collab_workspace_status", map[string]any{"workspace_id": b.ws}); r.IsError {
			t.Fatalf("server %d does not answer a read while refused a write: %s", i, r.Raw)
		}
	}
	mustExec(t, ownerDB, "GRANT INSERT ON collab.reports TO "+role)
	after := b.progressed(b.all(), 3)
	close(granted)
	b.waitUntil("every server has appended after GRANT", after)
	for _, m := range b.finish() {
		if strings.Contains(m, "postgres://") || strings.Contains(m, name) {
			t.Errorf("a refusal shows the address: %s", m)
		}
	}
}

// adminDB opens the database url names as the test server's superuser.
func adminDB(t *testing.T, raw string) *sql.DB {
	t.Helper()
	cfg, err := pgx.ParseConfig(raw)
	if err != nil {
		t.Fatal(err)
	}
	db := stdlib.OpenDB(*cfg)
	t.Cleanup(func() { db.Close() })
	return db
}

func mustExec(t *testing.T, db *sql.DB, stmt string) {
	t.Helper()
	if _, err := db.Exec(stmt); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

// databaseName is the database a URL names.
func databaseName(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(u.Path, "/")
}

func randomHex(t *testing.T) string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b[:])
}
