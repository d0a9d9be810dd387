package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"testing"
)

// openDB opens the journal the setting names (a SQLite file or a
// PostgreSQL URL, as AGENTOOL_COLLAB_DB) for inspection, read-only: the
// checks never write, and a server has already recovered the WAL. Queries
// on it go through inspect (inspect_test.go), which adapts them to the
// engine.
func openDB(t testing.TB, setting string) *sql.DB {
	t.Helper()
	db, err := openInspector(setting)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// execSQL changes the database behind the servers' backs, for tests that
// need a state no tool call can reach quickly (such as an expired lease).
// It holds a write-guard row, as the server does, so that the schema's
// triggers admit changes to session-owned rows.
func execSQL(t *testing.T, path, query string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for _, q := range []string{`INSERT INTO v2_write_guard (nonce, enabled) VALUES ('test', 1)`, query,
		`DELETE FROM v2_write_guard WHERE nonce = 'test'`} {
		if _, err := tx.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// invariant is one query whose single integer result must be zero; the
// name says what a non-zero count would mean.
type invariant struct {
	name  string
	query string
}

// structuralInvariants hold for every consistent collab database: the
// journal is gapless and linked, each workspace head names its last event,
// and every row that an event announces exists together with that event.
var structuralInvariants = []invariant{
	{"workspaces whose event count, first or last sequence disagree with the head", `
SELECT count(*) FROM (SELECT w.id, w.event_head_sequence AS head, count(e.sequence) AS n,
  coalesce(min(e.sequence), 1) AS lo, coalesce(max(e.sequence), 0) AS hi
  FROM workspaces w LEFT JOIN events e ON e.workspace_id = w.id GROUP BY w.id) AS heads
WHERE n != head OR hi != head OR lo != 1`},
	{"workspaces whose head hash is not the hash of their last event", `
SELECT count(*) FROM workspaces w JOIN events e ON e.workspace_id = w.id AND e.sequence = w.event_head_sequence
WHERE e.hash != w.event_head_hash`},
	{"events whose prev_hash is not their predecessor's hash", `
SELECT count(*) FROM events e JOIN events p ON p.workspace_id = e.workspace_id AND p.sequence = e.sequence - 1
WHERE e.prev_hash != p.hash`},
	{"reports without their report.posted event at event_sequence", `
SELECT count(*) FROM reports r LEFT JOIN events e ON e.workspace_id = r.workspace_id AND e.sequence = r.event_sequence
WHERE e.type IS DISTINCT FROM 'report.posted' OR e.entity_id IS DISTINCT FROM r.id`},
	{"report.posted events without their report row", `
SELECT count(*) FROM events e LEFT JOIN reports r ON r.id = e.entity_id WHERE e.type = 'report.posted' AND r.id IS NULL`},
	{"tasks without exactly one task.created event", `
SELECT count(*) FROM tasks t WHERE (SELECT count(*) FROM events e WHERE e.workspace_id = t.workspace_id
  AND e.type = 'task.created' AND e.entity_id = t.id) != 1`},
	{"task.created events without their task row", `
SELECT count(*) FROM events e LEFT JOIN tasks t ON t.workspace_id = e.workspace_id AND t.id = e.entity_id
WHERE e.type = 'task.created' AND t.id IS NULL`},
	{"tasks whose version is not the version their last event announced", `
SELECT count(*) FROM tasks t WHERE t.version != (SELECT max(v.version) FROM (` + taskVersions + `) v
  WHERE v.workspace_id = t.workspace_id AND v.task_id = t.id)`},
	{"coordination sessions without exactly one session.joined event", `
SELECT count(*) FROM coordination_sessions s WHERE (SELECT count(*) FROM events e
  WHERE e.type = 'session.joined' AND e.entity_id = s.id) != 1`},
	{"coordination sessions whose generation disagrees with their resumes and end", `
SELECT count(*) FROM coordination_sessions s WHERE s.generation != 1
  + (SELECT count(*) FROM events e WHERE e.type = 'session.resumed' AND e.entity_id = s.id)
  + (SELECT count(*) FROM events e WHERE e.type = 'session.ended' AND e.entity_id = s.id)
  OR (s.status = 'ended') != EXISTS (SELECT 1 FROM events e WHERE e.type = 'session.ended' AND e.entity_id = s.id)`},
	{"handoffs without their handoff.offered event", `
SELECT count(*) FROM handoffs h WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.type = 'handoff.offered' AND e.entity_id = h.id)`},
	{"resolved handoffs without the event that resolved them", `
SELECT count(*) FROM handoffs h WHERE h.status != 'pending' AND NOT EXISTS (SELECT 1 FROM events e
  WHERE e.entity_id = h.id AND e.type = 'handoff.' || h.status)`},
	{"pending handoffs with a resolving event", `
SELECT count(*) FROM handoffs h WHERE h.status = 'pending' AND EXISTS (SELECT 1 FROM events e
  WHERE e.entity_id = h.id AND e.type IN ('handoff.accepted', 'handoff.declined', 'handoff.expired'))`},
}

// taskVersions lists, for every event that moved a task, the task and the
// version the event announced: task events carry it as version, handoff
// events (whose entity is the handoff) as task_version.
const taskVersions = `
SELECT workspace_id, entity_id AS task_id, CAST(json_extract(payload_json, '$.version') AS INTEGER) AS version FROM events
WHERE type LIKE 'task.%' OR type = 'artifact.attached'
UNION ALL
SELECT workspace_id, coalesce(json_extract(payload_json, '$.task_id'), json_extract(payload_json, '$.handoff.task_id'),
  json_extract(payload_json, '$.offer.task_id')), CAST(json_extract(payload_json, '$.task_version') AS INTEGER) FROM events
WHERE type LIKE 'handoff.%' AND json_extract(payload_json, '$.task_version') IS NOT NULL`

// requireStructuralInvariants fails the test for every violated invariant.
func requireStructuralInvariants(t *testing.T, db *sql.DB) {
	t.Helper()
	bad, err := structuralViolations(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range bad {
		t.Error(msg)
	}
}

// structuralViolations checks every structural invariant and every
// receipt, and describes each violation found.
func structuralViolations(db *sql.DB) ([]string, error) {
	var bad []string
	for _, inv := range structuralInvariants {
		var n int
		if err := db.QueryRow(inspect(db, inv.query)).Scan(&n); err != nil {
			return nil, fmt.Errorf("%s: %w", inv.name, err)
		}
		if n != 0 {
			bad = append(bad, fmt.Sprintf("%d %s", n, inv.name))
		}
	}
	receipts, err := receiptViolations(db)
	return append(bad, receipts...), err
}

// receiptViolations checks that every idempotency receipt's stored
// response describes a change that is really in the database: the report,
// handoff or decision row, and the event that took a task to the version
// the response shows. A receipt without its change is a half-applied write.
func receiptViolations(db *sql.DB) ([]string, error) {
	rows, err := db.Query(`SELECT workspace_id, operation, response_json FROM mutations`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var bad []string
	for rows.Next() {
		var ws, op, resp string
		if err := rows.Scan(&ws, &op, &resp); err != nil {
			return nil, err
		}
		if msg := receiptEffectMissing(db, ws, resp); msg != "" {
			bad = append(bad, "receipt "+op+": "+msg)
		}
	}
	return bad, rows.Err()
}

// receiptResponse is the part of a stored response the checks look at.
type receiptResponse struct {
	Task *struct {
		ID      string `json:"id"`
		Version int64  `json:"version"`
	} `json:"task"`
	Report   *struct{ ID string } `json:"report"`
	Handoff  *struct{ ID string } `json:"handoff"`
	Decision *struct{ ID string } `json:"decision"`
}

func receiptEffectMissing(db *sql.DB, ws, resp string) string {
	var r receiptResponse
	if err := json.Unmarshal([]byte(resp), &r); err != nil {
		return fmt.Sprintf("response is not JSON: %v", err)
	}
	exists := func(query string, args ...any) bool {
		var n int
		return db.QueryRow(inspect(db, query), args...).Scan(&n) == nil && n > 0
	}
	switch {
	case r.Report != nil && !exists(`SELECT count(*) FROM reports WHERE id = ?`, r.Report.ID):
		return "report " + r.Report.ID + " missing"
	case r.Handoff != nil && !exists(`SELECT count(*) FROM handoffs WHERE id = ?`, r.Handoff.ID):
		return "handoff " + r.Handoff.ID + " missing"
	case r.Decision != nil && !exists(`SELECT count(*) FROM events WHERE type = 'decision.recorded' AND entity_id = ?`, r.Decision.ID):
		return "decision " + r.Decision.ID + " has no event"
	case r.Task != nil && !exists(`SELECT count(*) FROM (`+taskVersions+`) AS v WHERE workspace_id = ? AND task_id = ? AND version = ?`,
		ws, r.Task.ID, r.Task.Version):
		return fmt.Sprintf("no event took task %s to version %d", r.Task.ID, r.Task.Version)
	}
	return ""
}
