package main

import (
	"database/sql"
	"testing"

	"github.com/agenttool/collab/core/store/postgres/pgtest"
	"github.com/agenttool/collab/core/stress"
)

// Sizes of the PostgreSQL crash drill: how many times the database server
// is killed, and how many server processes write meanwhile. CI kills it
// 100 times; COLLAB_STRESS=full 300; the variables name exact counts.
const (
	pgCrashKillsEnv   = "COLLAB_PG_CRASH_KILLS"
	pgCrashWritersEnv = "COLLAB_PG_CRASH_WRITERS"
)

var (
	pgCrashKills   = stress.Size{Short: 10, CI: 100, Full: 300}
	pgCrashWriters = stress.Size{Short: 3, CI: 4, Full: 8}
)

// TestPostgresCrashLosesNoAcknowledgedWrite kills the database server with
// SIGKILL (the postmaster and every backend at once, as a power cut or an
// OOM kill does) 100 times while several server processes append reports
// to one journal, on a server of the test's own with fsync and
// synchronous_commit on, and starts it again after each kill. A writer
// repeats a call with its idempotency key until it is acknowledged, as the
// contract asks after a lost connection. Every acknowledged report must be
// in the journal exactly once afterwards, the journal gapless and
// verifying: a COMMIT whose reply the crash cut off must be answered by
// what the journal holds, never by a transaction id the restarted server
// may since have given to another writer's commit.
func TestPostgresCrashLosesNoAcknowledgedWrite(t *testing.T) {
	kills := stress.N(t, pgCrashKillsEnv, pgCrashKills)
	writers := stress.N(t, pgCrashWritersEnv, pgCrashWriters)
	own := pgtest.StartDurableServer(t)
	s := newSandbox(t)
	s.db = withPassword(t, pgtest.FreshDatabaseOn(t, own.URL), "")
	b := startPgBurst(t, s, writers, lostConnection, nil)
	for n := 0; n < kills; n++ {
		b.waitUntil("a server has appended since the last crash", b.anyProgressed())
		own.Crash(t)
	}
	b.waitUntil("every server has appended after the last crash", b.progressed(b.all(), 3))
	b.halt()
	acked, missing := b.unjournalled(openDB(t, s.db))
	t.Logf("%d kills: %d reports acknowledged, %d of them missing from the journal", kills, acked, missing)
	b.finish()
}

// anyProgressed returns a condition that holds once some worker has been
// acknowledged again since anyProgressed was called: the database server
// is up and commits are flowing.
func (b *pgBurst) anyProgressed() func() bool {
	b.mu.Lock()
	base := 0
	for _, n := range b.acks {
		base += n
	}
	b.mu.Unlock()
	return func() bool {
		total := 0
		for _, n := range b.acks {
			total += n
		}
		return total > base
	}
}

// unjournalled counts the acknowledged writes and those of them the
// journal does not hold.
func (b *pgBurst) unjournalled(db *sql.DB) (acked, missing int) {
	b.t.Helper()
	b.ledger.mu.Lock()
	defer b.ledger.mu.Unlock()
	for _, w := range b.ledger.writes {
		var n int
		if err := db.QueryRow(inspect(db, "SELECT count(*) FROM events WHERE type = ?1 AND entity_id = ?2"), w.typ, w.entity).Scan(&n); err != nil {
			b.t.Fatal(err)
		}
		if n == 0 {
			missing++
		}
	}
	return len(b.ledger.writes), missing
}
