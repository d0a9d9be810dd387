package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store/storetest"
)

// writeLegacyDatabase creates a v0.1-layout database (user_version 0, no
// v0.2 objects) whose one workspace holds n protocol-0.1 events chained
// exactly as 0.1.0 wrote them. The workspace root does not exist, so
// migration falls back to a path identity, as for a moved repository.
func writeLegacyDatabase(tb testing.TB, path string, n int) string {
	tb.Helper()
	conn, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close()
	tx, err := conn.Begin()
	if err != nil {
		tb.Fatal(err)
	}
	for _, stmt := range legacySchema {
		if _, err := tx.Exec(stmt); err != nil {
			tb.Fatal(err)
		}
	}
	const ws, epoch = "ws_synthetic_legacy_000000", "epoch_00000000-0000-4000-8000-000000000000"
	insert, err := tx.Prepare(`INSERT INTO events (workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor,
occurred_at, payload_json, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO workspaces (id, epoch_id, root_path, name, created_at, event_head_sequence, event_head_hash)
VALUES (?, ?, '/nonexistent/synthetic-legacy-root', 'synthetic', '2026-01-01T00:00:00.000Z', 0, ?)`, ws, epoch, journal.GenesisHash); err != nil {
		tb.Fatal(err)
	}
	var h journal.Hasher
	prev := journal.GenesisHash
	for i := 1; i <= n; i++ {
		payload, _ := canon.Marshal(map[string]any{"message": fmt.Sprintf("legacy progress note %d", i), "version": i})
		e := journal.Event{WorkspaceID: ws, EpochID: epoch, Sequence: int64(i), ID: fmt.Sprintf("event_%08d", i),
			Protocol: journal.ProtocolV1, Type: "task.progressed", EntityID: "task_legacy", Actor: "legacy-agent",
			OccurredAt: "2026-01-01T00:00:00.000Z", PayloadJSON: payload, PrevHash: prev}
		e.Hash, _ = h.Hash(&e)
		if _, err := insert.Exec(e.WorkspaceID, e.EpochID, e.Sequence, e.ID, e.Protocol, e.Type, e.EntityID, e.Actor,
			e.OccurredAt, string(e.PayloadJSON), e.PrevHash, e.Hash); err != nil {
			tb.Fatal(err)
		}
		prev = e.Hash
	}
	if _, err := tx.Exec("UPDATE workspaces SET event_head_sequence = ?, event_head_hash = ? WHERE id = ?", n, prev, ws); err != nil {
		tb.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
	return ws
}

// eventDigest summarises every stored event byte that is hashed.
func eventDigest(tb testing.TB, path string) string {
	tb.Helper()
	conn, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close()
	var digest string
	err = conn.QueryRow(`SELECT count(*) || ':' || sum(length(hash)) || ':' || group_concat(hash, '') FROM
(SELECT hash FROM events ORDER BY workspace_id, sequence)`).Scan(&digest)
	if err != nil {
		tb.Fatal(err)
	}
	return sha256Hex(digest)
}

func TestSyntheticLegacyMigrationKeepsEveryHash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "legacy.sqlite")
	ws := writeLegacyDatabase(t, path, 2000)
	before := eventDigest(t, path)
	st, err := Open(context.Background(), Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if ok, _, err := storetest.VerifyChain(context.Background(), st, ws); err != nil || !ok {
		t.Fatalf("migrated journal does not verify: %v", err)
	}
	if after := eventDigest(t, path); after != before {
		t.Fatal("migration changed stored event hashes")
	}
}

// BenchmarkMigrateLegacy100k migrates a 100,000-event v0.1 database in
// place (one transaction: DDL, backfill, checks, full verification).
func BenchmarkMigrateLegacy100k(b *testing.B) {
	template := filepath.Join(b.TempDir(), "template.sqlite")
	writeLegacyDatabase(b, template, 100000)
	want := eventDigest(b, template)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		path := filepath.Join(b.TempDir(), "legacy.sqlite")
		copyFileB(b, template, path)
		b.StartTimer()
		start := time.Now()
		st, err := Open(context.Background(), Options{Path: path})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "s/migration")
		st.Close()
		b.StopTimer()
		if eventDigest(b, path) != want {
			b.Fatal("migration changed stored event hashes")
		}
		b.StartTimer()
	}
}

func copyFileB(b *testing.B, src, dst string) {
	in, err := sql.Open("sqlite", "file:"+src+"?mode=ro")
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	if _, err := in.Exec("VACUUM INTO ?", dst); err != nil {
		b.Fatal(err)
	}
}
